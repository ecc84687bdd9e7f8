/// Nothing to run: this package exists for the images in Resources/.
public enum AuditFixture {}
