#!/usr/bin/env python3
"""Driver of Scripts/bench-convert.sh (see there). Prints a Markdown table and the targets."""
import json
import os
import shutil
import statistics
import subprocess
import sys
import time

import numpy as np
from PIL import Image

Z, IN, WORK, ROUNDS, CORPUS = sys.argv[1:6]
ROUNDS = int(ROUNDS)
SETS = sys.argv[6:]
IM = "/usr/bin/convert"  # ImageMagick (not a stand-in earlier on PATH)


def run(cmd, cpu=False):
    """Runs cmd under /usr/bin/time; returns (wall seconds, peak RSS in bytes), and with cpu
    the CPU seconds (user + system) as a third value. Fails loudly.

    The peak and the CPU come from time's %M, %U and %S (the command's own), not from
    wait4's rusage, which would count the forked Python's pages before exec."""
    t0 = time.perf_counter()
    p = subprocess.run(["/usr/bin/time", "-f", "BENCH-RSS-KB %M %U %S"] + cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    dt = time.perf_counter() - t0
    err = p.stderr.decode(errors="replace")
    if p.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed: {err.strip()[:300]}")
    kb, user, system = [l for l in err.splitlines() if l.startswith("BENCH-RSS-KB ")][-1].split()[1:4]
    if cpu:
        return dt, int(kb) * 1024, float(user) + float(system)
    return dt, int(kb) * 1024


def decoded(path, tag):
    """Frames of path decoded by Zoetrope into WORK/tag: (list of PNG paths, raw durations ms)."""
    d = os.path.join(WORK, "frames-" + tag)
    shutil.rmtree(d, ignore_errors=True)
    subprocess.run([Z, "frames", path, "--output", d], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    m = json.load(open(os.path.join(d, "manifest.json")))
    return [os.path.join(d, f["file"]) for f in m["frames"]], [f["durationMs"] for f in m["frames"]]


def premultiplied(png):
    a = np.asarray(Image.open(png).convert("RGBA"), dtype=np.float64)
    a[..., :3] *= a[..., 3:4] / 255.0
    return a


def psnr(src, out):
    """PSNR of out's frames against src's, aligned by index (same count) or by start time."""
    (sf, sd), (of, od) = src, out
    if len(sf) == len(of):
        pairs = list(zip(sf, of))
    else:
        starts, t = [], 0.0
        for d in od:
            starts.append(t)
            t += d
        pairs, t = [], 0.0
        for f, d in zip(sf, sd):
            j = max(k for k, s in enumerate(starts) if s <= t + 1e-6)
            pairs.append((f, of[j]))
            t += d
    se, n = 0.0, 0
    for a, b in pairs:
        x, y = premultiplied(a), premultiplied(b)
        if x.shape != y.shape:
            return float("nan")
        se += float(((x - y) ** 2).sum())
        n += x.size
    mse = se / n
    return float("inf") if mse == 0 else 10 * np.log10(255 * 255 / mse)


rows = []  # (input, task, tool, bytes, seconds, peak bytes, psnr, CPU seconds)
curves = []  # (input, [(N, bytes, psnr)] for zoetrope --lossy N, the same for gifsicle --lossy=N)
AVIF_TASK = "GIF→AVIF q70 4:4:4 s6"  # convert's AVIF defaults


def race(name, task, src_frames, jobs):
    """jobs: [(tool, out path, cmd)]; runs them ROUNDS times alternating; records medians."""
    times = {t: [] for t, _, _ in jobs}
    mems = {t: [] for t, _, _ in jobs}
    cpus = {t: [] for t, _, _ in jobs}
    for _ in range(ROUNDS):
        for tool, out, cmd in jobs:
            if os.path.exists(out):
                os.remove(out)
            dt, rss, cpu = run(cmd, cpu=True)
            times[tool].append(dt)
            mems[tool].append(rss)
            cpus[tool].append(cpu)
    for tool, out, _ in jobs:
        q = psnr(src_frames, decoded(out, "out")) if src_frames else float("nan")
        cpu = statistics.median(cpus[tool])
        rows.append((name, task, tool, os.path.getsize(out), statistics.median(times[tool]), max(mems[tool]), q, cpu))
        print(f"  {name:8} {task:18} {tool:26} {os.path.getsize(out):>11,} B {statistics.median(times[tool]):7.2f} s "
              f"{cpu:7.2f} s CPU {max(mems[tool]) / 2**20:7.1f} MiB {q:6.2f} dB", file=sys.stderr, flush=True)


def frame_args(frames, durations, per_frame_flag):
    args = []
    for f, d in zip(frames, durations):
        args += [per_frame_flag, str(int(round(d))), f]
    return args


def avifenc_args(frames, durations):
    args = ["--timescale", "1000"]
    for f, d in zip(frames, durations):
        args += ["--duration", str(int(round(d))), f]
    return args


# libvips through pyvips (the pyvips-binary wheel: what sharp's users get), all frames, lossless.
VIPS_WEBP = ("import pyvips, sys; pyvips.Image.new_from_file(sys.argv[1], n=-1, access='sequential')"
             ".webpsave(sys.argv[2], lossless=True)")

# TASKS (a space-separated subset of "webp webp-lossy avif gif", default all) picks the races.
TASKS = os.environ.get("TASKS", "webp webp-lossy avif gif").split()

for s in SETS:
    gif = os.path.join(IN, s + ".gif")
    src = decoded(gif, "src-" + s)
    frames, durs = src
    o = lambda ext: os.path.join(WORK, f"{s}.{ext}")
    print(f"== {s}.gif: {len(frames)} frames", file=sys.stderr, flush=True)
    if "webp" in TASKS: race(s, "GIF→WebP lossless", src, [
        ("zoetrope convert", o("z.webp"), [Z, "convert", gif, o("z.webp"), "--quiet"]),
        ("gif2webp", o("g.webp"), ["gif2webp", "-quiet", gif, "-o", o("g.webp")]),
        ("img2webp -lossless", o("i.webp"), ["img2webp", "-loop", "0", "-lossless"] + frame_args(frames, durs, "-d") + ["-o", o("i.webp")]),
        ("ffmpeg libwebp_anim", o("f.webp"), ["ffmpeg", "-v", "error", "-y", "-i", gif, "-c:v", "libwebp_anim", "-lossless", "1",
                                              "-loop", "0", o("f.webp")]),
        ("libvips webpsave", o("v.webp"), ["python3", "-c", VIPS_WEBP, gif, o("v.webp")]),
    ])
    if "webp-lossy" in TASKS: race(s, "GIF→WebP q75", src, [
        ("zoetrope --quality 75", o("zq.webp"), [Z, "convert", gif, o("zq.webp"), "--quality", "75", "--quiet"]),
        ("gif2webp -lossy -q 75", o("gq.webp"), ["gif2webp", "-quiet", "-lossy", "-q", "75", gif, "-o", o("gq.webp")]),
        ("img2webp -lossy -q 75", o("iq.webp"), ["img2webp", "-loop", "0", "-lossy", "-q", "75"] + frame_args(frames, durs, "-d") + ["-o", o("iq.webp")]),
    ])
    q = str(((100 - 70) * 63 + 50) // 100)  # the quantiser of convert's default AVIF quality, 70
    if "avif" in TASKS: race(s, AVIF_TASK, src, [
        ("zoetrope (aom)", o("z.avif"), [Z, "convert", gif, o("z.avif"), "--quiet"]),
        (f"avifenc --min/max {q}", o("a.avif"), ["avifenc", "-j", "2", "-s", "6", "-y", "444", "--min", q, "--max", q,
                                                "--minalpha", q, "--maxalpha", q] + avifenc_args(frames, durs) + [o("a.avif")]),
    ])
    if "gif" in TASKS: race(s, "GIF→GIF", src, [
        ("zoetrope convert", o("z.gif"), [Z, "convert", gif, o("z.gif"), "--quiet"]),
        ("gifsicle -O2 --colors 256", o("s.gif"), ["gifsicle", "-O2", "--colors", "256", gif, "-o", o("s.gif")]),
        ("gifsicle -O3 --colors 256", o("s3.gif"), ["gifsicle", "-O3", "--colors", "256", gif, "-o", o("s3.gif")]),
    ])
    if "gif" in TASKS: race(s, "GIF→GIF lossy 60", src, [
        ("zoetrope --lossy 60", o("zl.gif"), [Z, "convert", gif, o("zl.gif"), "--lossy", "60", "--quiet"]),
        ("gifsicle -O3 --lossy=60", o("sl.gif"), ["gifsicle", "-O3", "--lossy=60", "--colors", "256", gif, "-o", o("sl.gif")]),
    ])

    if "gifcurve" in TASKS:
        # Both lossy GIF modes along their curves (one run each: bytes and PSNR only).
        def point(out, cmd):
            run(cmd)
            return os.path.getsize(out), psnr(src, decoded(out, "out"))
        zs = [(n,) + point(o(f"zc{n}.gif"), [Z, "convert", gif, o(f"zc{n}.gif"), "--lossy", str(n), "--quiet"])
              for n in (10, 20, 40, 60, 80, 120, 200, 400, 800, 1600)]
        gs = [(n,) + point(o(f"gc{n}.gif"), ["gifsicle", "-O3", f"--lossy={n}", "--colors", "256", gif, "-o", o(f"gc{n}.gif")])
              for n in (20, 40, 60, 80, 120, 200)]
        curves.append((s, zs, gs))

# Photographic frames → GIF: 12 frames of big.png at 480×270.
big = os.path.join(IN, "big.png")
EXTRAS = os.environ.get("EXTRAS", "1") == "1"
if EXTRAS and os.path.exists(big):
    pdir = os.path.join(WORK, "photo12")
    os.makedirs(pdir, exist_ok=True)
    im = Image.open(big)
    pf = []
    for i in range(12):
        im.seek(i)
        p = os.path.join(pdir, f"f{i:02}.png")
        im.convert("RGBA").resize((480, 270), Image.LANCZOS).save(p)
        pf.append(p)
    apng = os.path.join(WORK, "photo12.png")
    first = Image.open(pf[0])
    first.save(apng, save_all=True, append_images=[Image.open(p) for p in pf[1:]], duration=40, loop=0)
    src = decoded(apng, "src-photo")
    o = lambda ext: os.path.join(WORK, f"photo12.{ext}")
    pillow = ("from PIL import Image; import sys; f=[Image.open(p).convert('RGB') for p in sys.argv[2:]]; "
              "f[0].save(sys.argv[1], save_all=True, append_images=f[1:], duration=40, loop=0)")
    print("== photo12 (12 frames of big.png at 480x270)", file=sys.stderr, flush=True)
    race("photo12", "frames→GIF", src, [
        ("zoetrope (no dither)", o("z.gif"), [Z, "convert", apng, o("z.gif"), "--quiet"]),
        ("zoetrope --dither fs", o("zf.gif"), [Z, "convert", apng, o("zf.gif"), "--dither", "fs", "--quiet"]),
        ("ImageMagick convert", o("m.gif"), [IM, "-delay", "4", "-loop", "0"] + pf + [o("m.gif")]),
        ("Pillow", o("p.gif"), ["python3", "-c", pillow, o("p.gif")] + pf),
    ])

# The visible corpus: every GIF with at least two frames, to lossless WebP.
gifs = []
for root, _, files in (os.walk(CORPUS) if EXTRAS else []):
    for f in sorted(files):
        if f.endswith(".gif"):
            p = os.path.join(root, f)
            r = subprocess.run([Z, "info", p, "--json"], capture_output=True, text=True)
            if r.returncode == 0 and json.loads(r.stdout)[0].get("frameCount", 0) > 1:
                gifs.append(p)
tot = {"in": 0, "z": 0, "g": 0, "zt": 0.0, "gt": 0.0, "n": 0, "exact": 0}
converted = []
for p in gifs:
    try:
        zt, _ = run([Z, "convert", p, os.path.join(WORK, "c.webp"), "--quiet"])
        gt, _ = run(["gif2webp", "-quiet", p, "-o", os.path.join(WORK, "c2.webp")])
    except RuntimeError:
        continue
    tot["n"] += 1
    converted.append(p)
    tot["in"] += os.path.getsize(p)
    tot["z"] += os.path.getsize(os.path.join(WORK, "c.webp"))
    tot["g"] += os.path.getsize(os.path.join(WORK, "c2.webp"))
    tot["zt"] += zt
    tot["gt"] += gt
    if psnr(decoded(p, "cs"), decoded(os.path.join(WORK, "c.webp"), "co")) == float("inf"):
        tot["exact"] += 1

# The same files in one process (`--output-dir`): the start-up paid once.
if tot["n"]:
    batch = os.path.join(WORK, "batch")
    shutil.rmtree(batch, ignore_errors=True)
    tot["bt"], _ = run([Z, "convert"] + converted + ["--output-dir", batch, "--format", "webp", "--quiet"])

print("| input | conversion | tool | bytes | time (s) | CPU (s) | peak RSS (MiB) | PSNR (dB) |")
print("|---|---|---|---:|---:|---:|---:|---:|")
for name, task, tool, b, t, m, q, c in rows:
    qs = "exact" if q == float("inf") else ("n/a" if q != q else f"{q:.2f}")
    print(f"| {name} | {task} | {tool} | {b:,} | {t:.2f} | {c:.2f} | {m / 2**20:.1f} | {qs} |")
print()
if gifs:
  print(f"Corpus: {tot['n']} animated GIFs ({tot['in']:,} bytes) → lossless WebP: zoetrope {tot['z']:,} bytes in "
        f"{tot['zt']:.2f} s ({tot['exact']} of {tot['n']} decode exactly), {tot.get('bt', 0):.2f} s in one process "
        f"(--output-dir); gif2webp {tot['g']:,} bytes in {tot['gt']:.2f} s.")
  print()

if curves:
    print("Lossy GIF along the curves: Zoetrope's bytes at each gifsicle point's PSNR, interpolated")
    print("between the two `--lossy` settings around it (bytes linear in dB).")
    print()
    print("| input | gifsicle -O3 --lossy | bytes | PSNR (dB) | zoetrope at that PSNR | ratio |")
    print("|---|---:|---:|---:|---:|---:|")
    for s, zs, gs in curves:
        for n, b, q in gs:
            pts = sorted((zq, zb) for _, zb, zq in zs)
            at = None
            for (q0, b0), (q1, b1) in zip(pts, pts[1:]):
                if q0 <= q <= q1 and q1 > q0:
                    at = b0 + (b1 - b0) * (q - q0) / (q1 - q0)
            zt = f"{at:,.0f}" if at else "outside"
            print(f"| {s} | {n} | {b:,} | {q:.2f} | {zt} | {at / b:.3f} |" if at else f"| {s} | {n} | {b:,} | {q:.2f} | {zt} | |")
    print()
    print("| input | zoetrope --lossy | bytes | PSNR (dB) |")
    print("|---|---:|---:|---:|")
    for s, zs, _ in curves:
        for n, b, q in zs:
            print(f"| {s} | {n} | {b:,} | {q:.2f} |")
    print()


def row(name, task, tool):
    return next((r for r in rows if r[0] == name and r[1] == task and r[2] == tool), None)


print("Targets:")
for s in SETS:
    z, g = row(s, "GIF→WebP lossless", "zoetrope convert"), row(s, "GIF→WebP lossless", "gif2webp")
    if z and g:
        print(f"- {s}: GIF→WebP lossless {'met' if z[3] <= g[3] and z[4] <= g[4] else 'NOT met'}: "
              f"{z[3]:,} vs {g[3]:,} bytes, {z[4]:.2f} vs {g[4]:.2f} s")
    for other in ("ffmpeg libwebp_anim", "libvips webpsave"):
        r = row(s, "GIF→WebP lossless", other)
        if z and r:
            print(f"- {s}: GIF→WebP lossless against {other} {'met' if z[3] <= r[3] and z[7] <= r[7] else 'NOT met'}: "
                  f"{z[3]:,} vs {r[3]:,} bytes, {z[7]:.2f} vs {r[7]:.2f} s CPU")
    zl, sl = row(s, "GIF→GIF lossy 60", "zoetrope --lossy 60"), row(s, "GIF→GIF lossy 60", "gifsicle -O3 --lossy=60")
    if zl and sl:
        print(f"- {s}: --lossy 60 {'met' if zl[3] <= sl[3] and zl[6] >= sl[6] - 0.2 else 'NOT met'}: "
              f"{zl[3]:,} vs {sl[3]:,} bytes, {zl[6]:.2f} vs {sl[6]:.2f} dB")
    a = row(s, AVIF_TASK, "zoetrope (aom)")
    if a:
        ratio = os.path.getsize(os.path.join(IN, s + ".gif")) / a[3]
        print(f"- {s}: GIF→AVIF {'met' if a[6] >= 38 and ratio >= 5 else 'NOT met'}: {a[6]:.2f} dB, {ratio:.1f}× smaller than the GIF")
z, m, p = row("photo12", "frames→GIF", "zoetrope (no dither)"), row("photo12", "frames→GIF", "ImageMagick convert"), row("photo12", "frames→GIF", "Pillow")
if z and m and p:
    ok = z[6] >= max(m[6], p[6]) and z[3] <= min(m[3], p[3])
    print(f"- photo12→GIF {'met' if ok else 'NOT met'}: zoetrope {z[6]:.2f} dB in {z[3]:,} B; ImageMagick {m[6]:.2f} dB in {m[3]:,} B; "
          f"Pillow {p[6]:.2f} dB in {p[3]:,} B")
b = row("big", "GIF→WebP lossless", "zoetrope convert")
if b:
    budget = 60 * 1920 * 1080 * 4 / 3
    print(f"- big.gif→WebP peak memory {'met' if b[5] < budget else 'NOT met'}: {b[5] / 2**20:.1f} MiB "
          f"(a third of all decoded frames: {budget / 2**20:.1f} MiB)")
