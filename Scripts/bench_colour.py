#!/usr/bin/env python3
"""The measurements of Scripts/bench-colour.sh (which builds the tools and sets the
environment: ZOETROPE, COLOUR_BENCH, WORK, ROUNDS, MIN_TIME)."""
import io
import json
import os
import statistics
import subprocess
import sys
import time

from PIL import Image, ImageChops, ImageCms, ImageSequence

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
chromium_colour = __import__("chromium-colour")

ZOETROPE = os.environ["ZOETROPE"]
WORK = os.environ["WORK"]
ROUNDS = int(os.environ.get("ROUNDS", "3"))
MIN_TIME = float(os.environ.get("MIN_TIME", "1"))
W, H, FRAMES = 1024, 768, 12


def frames():
    """Photographic-looking frames: crossed gradients with noise, moving frame to frame."""
    base_r = Image.linear_gradient("L").resize((W, H))
    base_g = Image.radial_gradient("L").resize((W, H))
    out = []
    for i in range(FRAMES):
        noise = Image.effect_noise((W, H), 24).point(lambda v: v // 3)
        r = ImageChops.offset(base_r, i * 37, 0)
        g = ImageChops.offset(base_g, 0, i * 23)
        b = ImageChops.add(ImageChops.invert(r).point(lambda v: v * 3 // 4), noise)
        out.append(Image.merge("RGBA", (ImageChops.add(r, noise), g, b, Image.new("L", (W, H), 255))))
    return out


def make_inputs():
    paths = {}
    f = frames()
    png_u = os.path.join(WORK, "untagged.png")
    f[0].save(png_u, save_all=True, append_images=f[1:], duration=40, loop=0)
    png_t = os.path.join(WORK, "tagged.png")
    subprocess.run([sys.executable, os.path.join(HERE, "chromium-colour.py"), "--tag", png_u, png_t], check=True)
    paths["png"] = (png_u, png_t)
    for ext in ("webp", "avif"):
        pair = []
        for variant, src in (("untagged", png_u), ("tagged", png_t)):
            out = os.path.join(WORK, f"{variant}.{ext}")
            subprocess.run([ZOETROPE, "convert", src, out, "--quiet"], check=True)
            pair.append(out)
        paths[ext] = tuple(pair)
    p3 = chromium_colour.icc_profile("Display P3", chromium_colour.P3, "srgb")
    jpg_u, jpg_t = os.path.join(WORK, "untagged.jpg"), os.path.join(WORK, "tagged.jpg")
    f[0].convert("RGB").save(jpg_u, quality=90)
    f[0].convert("RGB").save(jpg_t, quality=90, icc_profile=p3)
    paths["jpeg"] = (jpg_u, jpg_t)
    return paths


def zoetrope_fps(path, threads):
    """Frames per wall-clock second, and per CPU second of the whole process (user +
    system, /usr/bin/time): on a shared machine the second moves less with the load."""
    args = ["/usr/bin/time", "-f", "cpu %U %S", ZOETROPE, "bench", path, "--no-policies", "--json",
            "--min-time", str(MIN_TIME)]
    if threads:
        args += ["--threads", str(threads)]
    done = subprocess.run(args, check=True, capture_output=True, text=True)
    r = json.loads(done.stdout)[0]
    cpu = [line for line in done.stderr.splitlines() if line.startswith("cpu ")][-1].split()
    return r["framesPerSecond"], r["framesDecoded"] / (float(cpu[1]) + float(cpu[2]))


SRGB = ImageCms.createProfile("sRGB")


def pillow_fps(path):
    """Every frame to RGBA, converted to sRGB with ImageCms when the file has a profile
    (the transform built once per file, relative colorimetric, as a viewer would)."""
    count, start, cpu0, transforms = 0, time.perf_counter(), time.process_time(), {}
    while True:
        with Image.open(path) as im:
            icc = im.info.get("icc_profile")
            transform = None
            if icc:
                transform = transforms.get(icc)
                if transform is None:
                    transform = ImageCms.buildTransform(
                        ImageCms.ImageCmsProfile(io.BytesIO(icc)), SRGB, "RGBA", "RGBA",
                        renderingIntent=ImageCms.Intent.RELATIVE_COLORIMETRIC)
                    transforms[icc] = transform
            for frame in ImageSequence.Iterator(im):
                rgba = frame.convert("RGBA")
                if transform is not None:
                    ImageCms.applyTransform(rgba, transform, inPlace=True)
                count += 1
        elapsed = time.perf_counter() - start
        if elapsed >= MIN_TIME:
            return count / elapsed, count / (time.process_time() - cpu0)


def main():
    print(f"== inputs in {WORK}; {ROUNDS} rounds, load average {open('/proc/loadavg').read().split()[:3]}", file=sys.stderr)
    paths = make_inputs()
    results = {}
    for r in range(ROUNDS):
        print(f"== round {r + 1}/{ROUNDS}", file=sys.stderr)
        for fmt, pair in paths.items():
            # Each command on the untagged file, then at once on the tagged one: the pair is
            # measured under the same load.
            for mode in ("one", "bulk", "pillow"):
                for variant, path in zip(("untagged", "tagged"), pair):
                    if mode == "one":
                        fps, cpu_fps = zoetrope_fps(path, 1)
                        results.setdefault((fmt, "one-cpu", variant), []).append(cpu_fps)
                    elif mode == "bulk":
                        fps, _ = zoetrope_fps(path, None)
                    else:
                        fps, cpu_fps = pillow_fps(path)
                        results.setdefault((fmt, "pillow-cpu", variant), []).append(cpu_fps)
                    results.setdefault((fmt, mode, variant), []).append(fps)
    print(f"1024×768, frames per wall-clock second (per CPU second where it says so), medians of {ROUNDS}"
          " (runs in brackets); ratio = tagged / untagged of the medians; per round = the median of each"
          " round's tagged / untagged, measured one after the other (a change of load between rounds"
          " cancels)\n")
    print("| format (profile) | mode | untagged | tagged | ratio | per round |")
    print("|---|---|---:|---:|---:|---:|")
    names = {"png": "APNG (Adobe RGB iCCP)", "jpeg": "JPEG (Display P3)", "webp": "WebP (Adobe RGB ICCP)",
             "avif": "AVIF (Adobe RGB colr)"}
    modes = {"one": "Zoetrope, 1 thread", "one-cpu": "Zoetrope, 1 thread, per CPU s", "bulk": "Zoetrope, bulk",
             "pillow": "Pillow + ImageCms", "pillow-cpu": "Pillow + ImageCms, per CPU s"}
    for fmt in paths:
        for mode in ("one", "one-cpu", "bulk", "pillow", "pillow-cpu"):
            u, t = results[(fmt, mode, "untagged")], results[(fmt, mode, "tagged")]
            mu, mt = statistics.median(u), statistics.median(t)
            runs = lambda xs: "/".join(f"{x:.0f}" for x in xs)  # noqa: E731
            paired = statistics.median(b / a for a, b in zip(u, t))
            print(f"| {names[fmt]} | {modes[mode]} | {mu:.1f} ({runs(u)}) | {mt:.1f} ({runs(t)}) | {mt / mu:.2f} "
                  f"| {paired:.2f} |")
    print("\nThe fast path against lcms2 over all 2^24 8-bit RGB values (RGBA8 in place, one thread, CPU time):\n")
    print("| profile | fast path | largest difference | values differing | fast MP/s | lcms2 MP/s |")
    print("|---|---|---:|---:|---:|---:|")
    out = subprocess.run([os.environ["COLOUR_BENCH"]], check=True, capture_output=True, text=True).stdout
    for line in out.splitlines():
        r = json.loads(line)
        if not r.get("maxDifference") and r.get("maxDifference") != 0:
            print(f"| {r['profile']} | no | | | | |")
            continue
        print(f"| {r['profile']} | {'yes' if r['fastPath'] else 'no'} | {r['maxDifference']} | "
              f"{r['differing']:,} | {r['fastMPs']} | {r['lcmsMPs']} |")


if __name__ == "__main__":
    main()
