#!/usr/bin/env python3
"""Compares Zoetrope's colour-managed frames with Chromium's, on tagged files built here.

    python3 Scripts/chromium-colour.py [--zoetrope .build/release/zoetrope] [--work DIR]
                                       [--oracle ../shared/tools/chromium_oracle.py] [--json FILE]
    python3 Scripts/chromium-colour.py --tag SRC.png OUT.png   # SRC with the Adobe RGB iCCP

Writes APNGs whose frames cover the RGB cube (a red-green ramp over a blue per frame, and a
frame with every alpha) declared as Adobe RGB and Display P3 (`iCCP`, profiles built here
from their primaries and curves), as `cHRM` + `gAMA`, `gAMA` alone (1.0, 1/1.8, 1/2.2, and
either side of each bound of the band Chromium takes as sRGB), `cHRM` alone, `cICP`
(Display P3, BT.2020, transfers) and `sRGB`. `zoetrope convert` makes WebP, AVIF and GIF
copies of the ICC and `cICP` cases (the profile or code points kept, as `convert` keeps
them). Each file is then decoded by `zoetrope frames` (converted to sRGB, the default) and
by Chromium (`chromium_oracle.py --color-space-conversion default --pixels canvas`: the
frames `ImageDecoder` gives are not colour-converted), and the opaque pixels are compared:
per file, the largest channel difference and how many channels differ by more than 1.

Needs what the oracle needs (Chromium, chromium-driver, selenium, Pillow; see its header).
The fixtures use the standard library only. Docs/Colour.md shows the results.
"""
import argparse
import json
import os
import struct
import subprocess
import sys
import zlib

from PIL import Image

import pngchunks
from pngchunks import chunk

W = H = 48

# ---------------------------------------------------------------- ICC profiles


def mat_mul(a, b):
    return [[sum(a[i][k] * b[k][j] for k in range(3)) for j in range(3)] for i in range(3)]


def mat_vec(a, v):
    return [sum(a[i][k] * v[k] for k in range(3)) for i in range(3)]


def mat_inv(m):
    (a, b, c), (d, e, f), (g, h, i) = m
    det = a * (e * i - f * h) - b * (d * i - f * g) + c * (d * h - e * g)
    return [[(e * i - f * h) / det, (c * h - b * i) / det, (b * f - c * e) / det],
            [(f * g - d * i) / det, (a * i - c * g) / det, (c * d - a * f) / det],
            [(d * h - e * g) / det, (b * g - a * h) / det, (a * e - b * d) / det]]


def xy_to_xyz(x, y):
    return [x / y, 1.0, (1 - x - y) / y]


D50 = [0.9642, 1.0, 0.8249]
BRADFORD = [[0.8951, 0.2664, -0.1614], [-0.7502, 1.7135, 0.0367], [0.0389, -0.0685, 1.0296]]


def colorants(primaries, white=(0.3127, 0.3290)):
    """The D50-adapted XYZ of the three primaries (the rXYZ/gXYZ/bXYZ tags), Bradford."""
    cols = [xy_to_xyz(*p) for p in primaries]
    m = [[cols[j][i] for j in range(3)] for i in range(3)]
    w = xy_to_xyz(*white)
    s = mat_vec(mat_inv(m), w)
    rgb_to_xyz = [[m[i][j] * s[j] for j in range(3)] for i in range(3)]
    src, dst = mat_vec(BRADFORD, w), mat_vec(BRADFORD, D50)
    scale = [[dst[i] / src[i] if i == j else 0 for j in range(3)] for i in range(3)]
    adapt = mat_mul(mat_inv(BRADFORD), mat_mul(scale, BRADFORD))
    full = mat_mul(adapt, rgb_to_xyz)
    return [[full[i][j] for i in range(3)] for j in range(3)]


def s15(v):
    return struct.pack(">i", round(v * 65536))


def icc_profile(description, primaries, curve):
    """A v2 RGB display profile: desc, cprt, wtpt (D50), colorants, one shared TRC."""
    text = description.encode() + b"\0"
    desc = (b"desc" + bytes(4) + struct.pack(">I", len(text)) + text + bytes(8)
            + struct.pack(">H", 0) + bytes(68))
    cprt = b"text" + bytes(4) + b"No copyright, use freely\0"
    xyz = lambda v: b"XYZ " + bytes(4) + s15(v[0]) + s15(v[1]) + s15(v[2])  # noqa: E731
    if curve == "srgb":
        trc = b"para" + bytes(4) + struct.pack(">HH", 3, 0) + b"".join(
            s15(v) for v in (2.4, 1 / 1.055, 0.055 / 1.055, 1 / 12.92, 0.04045))
    else:
        trc = b"curv" + bytes(4) + struct.pack(">IH", 1, round(curve * 256))
    r, g, b = colorants(primaries)
    tags = [(b"desc", desc), (b"cprt", cprt), (b"wtpt", xyz(D50)), (b"rXYZ", xyz(r)),
            (b"gXYZ", xyz(g)), (b"bXYZ", xyz(b)), (b"rTRC", trc)]
    table_size = 4 + 12 * (len(tags) + 2)
    table, data, offset = struct.pack(">I", len(tags) + 2), b"", 128 + table_size
    for name, body in tags:
        table += name + struct.pack(">II", offset, len(body))
        if name == b"rTRC":
            trc_entry = struct.pack(">II", offset, len(body))
        body += bytes(-len(body) % 4)
        data += body
        offset += len(body)
    table += b"gTRC" + trc_entry + b"bTRC" + trc_entry
    size = 128 + len(table) + len(data)
    header = (struct.pack(">III", size, 0, 0x02100000) + b"mntrRGB XYZ "
              + struct.pack(">6H", 2026, 12, 4, 0, 0, 0) + b"acsp" + bytes(24) + struct.pack(">I", 0)
              + s15(D50[0]) + s15(D50[1]) + s15(D50[2]) + bytes(48))
    assert len(header) == 128
    return header + table + data


ADOBE = [(0.64, 0.33), (0.21, 0.71), (0.15, 0.06)]
P3 = [(0.680, 0.320), (0.265, 0.690), (0.150, 0.060)]

# ---------------------------------------------------------------- PNG / APNG


def frame_pixels(index):
    """Frames 0-2: red along x, green along y, blue 0/128/255; frame 3: blue 200 and every alpha."""
    rows = []
    for y in range(H):
        row = bytearray([0])
        for x in range(W):
            r, g = round(x * 255 / (W - 1)), round(y * 255 / (H - 1))
            if index < 3:
                row += bytes([r, g, (0, 128, 255)[index], 255])
            else:
                row += bytes([r, g, 200, (x * W + y) * 255 // (W * H - 1)])
        rows.append(bytes(row))
    return zlib.compress(b"".join(rows))


def apng(description_chunks):
    return pngchunks.apng(W, H, [(frame_pixels(i), 1, 5) for i in range(4)], description=b"".join(description_chunks))


def iccp(name, profile):
    return chunk(b"iCCP", name + b"\0\0" + zlib.compress(profile))


def chrm(white, primaries):
    return chunk(b"cHRM", b"".join(struct.pack(">II", round(x * 100000), round(y * 100000))
                                   for x, y in [white] + primaries))


ADOBE_ICCP = iccp(b"Adobe RGB", icc_profile("Adobe RGB (built)", ADOBE, 563 / 256))

SOURCES = {
    "adobe-rgb-iccp": [ADOBE_ICCP],
    "display-p3-iccp": [iccp(b"Display P3", icc_profile("Display P3 (built)", P3, "srgb"))],
    "chrm-gama": [chunk(b"gAMA", struct.pack(">I", 55556)), chrm((0.3127, 0.3290), ADOBE)],
    "gama-1.0-alone": [chunk(b"gAMA", struct.pack(">I", 100000))],
    "gama-1.8-alone": [chunk(b"gAMA", struct.pack(">I", 55556))],
    "gama-2.2-alone": [chunk(b"gAMA", struct.pack(">I", 45455))],
    # Either side of each bound of the band Chromium shows as sRGB (43182-47727).
    **{f"gama-{g}-alone": [chunk(b"gAMA", struct.pack(">I", g))] for g in (43181, 43182, 47727, 47728)},
    "chrm-alone": [chrm((0.3127, 0.3290), ADOBE)],
    "cicp-display-p3": [chunk(b"cICP", bytes([12, 13, 0, 1]))],
    "cicp-bt2020": [chunk(b"cICP", bytes([9, 1, 0, 1]))],
    **{f"cicp-transfer-{t}": [chunk(b"cICP", bytes([1, t, 0, 1]))] for t in (1, 4, 5, 6, 8, 14, 15)},
    "srgb": [chunk(b"sRGB", b"\0"), chunk(b"gAMA", struct.pack(">I", 45455))],
}
# Lossy: Chromium 156 decodes a lossless (identity-matrix) AVIF as narrow range.
LOSSY = ["--quality", "95", "--chroma", "444"]
# Copies `zoetrope convert` makes, keeping the source's declaration.
# "webp.png": to WebP, which cannot hold gAMA, cHRM or code points, so `convert` writes an ICC
# profile built from them, then back to PNG (the profile kept as iCCP), which Chromium reads.
VIA_PROFILE = ("webp.png", [])
COPIES = {
    "adobe-rgb-iccp": [("webp", []), ("avif", LOSSY), ("gif", [])],
    "display-p3-iccp": [("webp", []), ("avif", LOSSY), ("gif", [])],
    "chrm-gama": [VIA_PROFILE],
    "gama-1.0-alone": [VIA_PROFILE],
    "gama-1.8-alone": [VIA_PROFILE],
    "cicp-display-p3": [("avif", LOSSY), VIA_PROFILE],
    "cicp-bt2020": [("avif", LOSSY), VIA_PROFILE],
    "cicp-transfer-1": [("avif", LOSSY), VIA_PROFILE],
}

# ---------------------------------------------------------------- comparison


def frames_of(folder):
    manifest = json.load(open(os.path.join(folder, "manifest.json")))
    return [Image.open(os.path.join(folder, f["file"])).convert("RGBA").tobytes() for f in manifest["frames"]]


def compare(ours, theirs):
    if len(ours) != len(theirs):
        return {"frames": f"{len(ours)} against {len(theirs)}"}
    worst, over1, channels = 0, 0, 0
    for a, b in zip(ours, theirs):
        if len(a) != len(b):
            return {"frames": "sizes differ"}
        for i in range(0, len(a), 4):
            if a[i + 3] != 255 or b[i + 3] != 255:
                continue  # the canvas Chromium's frames are read through premultiplies
            for c in range(4):
                d = abs(a[i + c] - b[i + c])
                channels += 1
                worst = max(worst, d)
                over1 += d > 1
    return {"frames": len(ours), "maxDiff": worst, "channelsOver1": over1, "channels": channels}


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser()
    ap.add_argument("--zoetrope", default=os.path.join(here, "..", ".build", "release", "zoetrope"))
    ap.add_argument("--oracle", default=os.path.join(here, "..", "..", "shared", "tools", "chromium_oracle.py"))
    ap.add_argument("--work", default="/tmp/zoetrope-chromium-colour")
    ap.add_argument("--json")
    ap.add_argument("--tag", nargs=2, metavar=("SRC.png", "OUT.png"),
                    help="only write a copy of SRC.png with the Adobe RGB iCCP after IHDR (benchmarks)")
    args = ap.parse_args()
    if args.tag:
        data = open(args.tag[0], "rb").read()
        if data[:8] != b"\x89PNG\r\n\x1a\n" or data[12:16] != b"IHDR":
            sys.exit(f"{args.tag[0]}: not a PNG")
        open(args.tag[1], "wb").write(data[:33] + ADOBE_ICCP + data[33:])
        return
    os.makedirs(args.work, exist_ok=True)
    files = []
    for name, chunks in SOURCES.items():
        path = os.path.join(args.work, name + ".png")
        open(path, "wb").write(apng(chunks))
        files.append(path)
        for ext, flags in COPIES.get(name, []):
            step = path
            for k in range(ext.count(".") + 1):  # "webp.png": through WebP, then to PNG
                out = os.path.join(args.work, name + "." + ".".join(ext.split(".")[:k + 1]))
                subprocess.run([args.zoetrope, "convert", step, out, "--quiet"] + flags, check=True)
                step = out
            files.append(step)
    jobs = []
    for path in files:
        base = os.path.basename(path)
        ours, theirs = os.path.join(args.work, "zoetrope", base), os.path.join(args.work, "chromium", base)
        subprocess.run([args.zoetrope, "frames", path, "--output", ours], check=True, stdout=subprocess.DEVNULL)
        jobs.append(f"{path}\t{theirs}")
    jobs_file = os.path.join(args.work, "jobs.tsv")
    open(jobs_file, "w").write("\n".join(jobs) + "\n")
    subprocess.run([sys.executable, args.oracle, "--map", jobs_file, "--color-space-conversion", "default",
                    "--pixels", "canvas", "--img-check", "--quiet"], check=True)
    results = {}
    print(f"{'file':28} {'frames':>6} {'max diff':>8} {'channels > 1':>14}")
    for path in files:
        base = os.path.basename(path)
        r = compare(frames_of(os.path.join(args.work, "zoetrope", base)),
                    frames_of(os.path.join(args.work, "chromium", base)))
        results[base] = r
        if "maxDiff" in r:
            print(f"{base:28} {r['frames']:>6} {r['maxDiff']:>8} {r['channelsOver1']:>7} of {r['channels']}")
        else:
            print(f"{base:28} frames: {r['frames']}")
    if args.json:
        json.dump(results, open(args.json, "w"), indent=1)


if __name__ == "__main__":
    main()
