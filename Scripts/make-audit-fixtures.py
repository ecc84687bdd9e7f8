#!/usr/bin/env python3
"""Writes the images of the `audit-animations` plugin's fixture package.

Standard library only (struct + zlib), so the fixture can be regenerated anywhere:

    python3 Scripts/make-audit-fixtures.py [Tests/Fixtures/AuditFixture/Sources/AuditFixture/Resources]

Every file is small and has known properties; PluginTests.swift expects exactly these.
"""
import os
import struct
import sys
import zlib

from pngchunks import SIGNATURE, apng, chunk

PALETTE = [(0, 0, 0), (255, 0, 0), (0, 200, 0), (0, 0, 255)]


def gif_lzw(indices):
    """LZW data for 2-bit indices, clearing every two codes so the code width stays 3 bits."""
    clear, eoi, width = 4, 5, 3
    bits, nbits, out = 0, 0, bytearray()

    def put(code):
        nonlocal bits, nbits
        bits |= code << nbits
        nbits += width
        while nbits >= 8:
            out.append(bits & 0xFF)
            bits >>= 8
            nbits -= 8

    for i in range(0, len(indices), 2):
        put(clear)
        for v in indices[i:i + 2]:
            put(v)
    put(eoi)
    if nbits:
        out.append(bits & 0xFF)
    blocks = bytearray([2])  # LZW minimum code size
    for i in range(0, len(out), 255):
        chunk = out[i:i + 255]
        blocks += bytes([len(chunk)]) + chunk
    return bytes(blocks + b"\x00")


def gif(screen, frames, loop=None):
    """frames: [(x, y, w, h, delay_cs, colour index)]; loop: NETSCAPE count or None."""
    w, h = screen
    out = bytearray(b"GIF89a" + struct.pack("<HHBBB", w, h, 0x91, 0, 0))
    for r, g, b in PALETTE:
        out += bytes([r, g, b])
    if loop is not None:
        out += b"\x21\xFF\x0BNETSCAPE2.0\x03\x01" + struct.pack("<H", loop) + b"\x00"
    for x, y, fw, fh, delay, colour in frames:
        out += b"\x21\xF9\x04" + struct.pack("<BHBB", 0, delay, 0, 0)
        out += b"\x2C" + struct.pack("<HHHHB", x, y, fw, fh, 0)
        out += gif_lzw([colour] * (fw * fh))
    return bytes(out + b"\x3B")


def rgba_rows(w, h, rgba):
    return zlib.compress(b"".join(b"\x00" + bytes(rgba) * w for _ in range(h)))


def png(w, h, frames=None, plays=0):
    """A still PNG (frames None) or an APNG whose frames are [(rgba, delay_num, delay_den)]."""
    if frames is None:
        ihdr = chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 6, 0, 0, 0))
        return SIGNATURE + ihdr + chunk(b"IDAT", rgba_rows(w, h, (10, 20, 30, 255))) + chunk(b"IEND", b"")
    return apng(w, h, [(rgba_rows(w, h, rgba), num, den) for rgba, num, den in frames], plays)


FILES = {
    # 8×8, 4 frames of 10, 50, 0 and 50 ms, looping forever: two delays clamp to 100 ms.
    "spinner.gif": gif((8, 8), [(0, 0, 8, 8, 1, 1), (0, 0, 8, 8, 5, 2), (0, 0, 8, 8, 0, 3), (0, 0, 8, 8, 5, 1)], loop=0),
    # APNG 6×4, 3 frames of 100 ms, 2 plays: nothing to warn about.
    "pulse.png": png(6, 4, [((255, 0, 0, 255), 1, 10), ((0, 255, 0, 255), 1, 10), ((0, 0, 255, 128), 1, 10)], plays=2),
    # A 2-frame GIF named .webp: the content decides, the extension gets a warning.
    "mislabeled.webp": gif((4, 4), [(0, 0, 4, 4, 10, 1), (0, 0, 4, 4, 10, 2)]),
    # An APNG whose animation holds one frame.
    "single-frame.png": png(3, 3, [((0, 0, 255, 255), 1, 2)], plays=0),
    # A plain still PNG: counted, not listed.
    "still.png": png(2, 2),
    # A 4096×4096 screen with two 1×1 frames: tiny file, 128 MiB decoded.
    "huge.gif": gif((4096, 4096), [(0, 0, 1, 1, 10, 1), (1, 1, 1, 1, 10, 2)], loop=0),
    # Says GIF, then nothing decodable.
    "broken.gif": b"GIF89a\x01\x00",
    # Not an image at all.
    "notes.txt": b"Not an image: the audit skips this file.\n",
}


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    default = os.path.join(here, "..", "Tests", "Fixtures", "AuditFixture", "Sources", "AuditFixture", "Resources")
    folder = sys.argv[1] if len(sys.argv) > 1 else default
    os.makedirs(folder, exist_ok=True)
    for name, data in FILES.items():
        with open(os.path.join(folder, name), "wb") as f:
            f.write(data)
    print(f"wrote {len(FILES)} files to {os.path.normpath(folder)}")


if __name__ == "__main__":
    main()
