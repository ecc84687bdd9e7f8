"""PNG and APNG writing for the scripts that make test and comparison images (standard
library only): chunks with their CRC, and an APNG of full-canvas RGBA frames."""
import struct
import zlib

SIGNATURE = b"\x89PNG\r\n\x1a\n"


def chunk(kind, body):
    """One chunk: length, type, body, CRC-32 of type and body."""
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF)


def apng(width, height, frames, plays=0, description=b""):
    """An 8-bit RGBA APNG: `frames` are (zlib-compressed filtered rows, delay numerator,
    delay denominator), each covering the canvas; `description` (chunks) goes after IHDR."""
    out = SIGNATURE + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0)) + description
    out += chunk(b"acTL", struct.pack(">II", len(frames), plays))
    seq = 0
    for i, (data, num, den) in enumerate(frames):
        out += chunk(b"fcTL", struct.pack(">IIIIIHHBB", seq, width, height, 0, 0, num, den, 0, 0))
        seq += 1
        if i == 0:
            out += chunk(b"IDAT", data)
        else:
            out += chunk(b"fdAT", struct.pack(">I", seq) + data)
            seq += 1
    return out + chunk(b"IEND", b"")
