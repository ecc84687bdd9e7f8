// One import for an application that wants every format: the core, encoding, every codec, loading and view support.
@_exported import Zoetrope
@_exported import ZoetropeAPNG
@_exported import ZoetropeAVIF
@_exported import ZoetropeBuiltInCoders
@_exported import ZoetropeColor
@_exported import ZoetropeEncoding
@_exported import ZoetropeGIF
@_exported import ZoetropeJPEG
@_exported import ZoetropeLoading
@_exported import ZoetropeUI
@_exported import ZoetropeWebP
