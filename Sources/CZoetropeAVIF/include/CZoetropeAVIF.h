/* libavif, loaded when first used instead of when the process starts.
 *
 * libavif brings its AV1 codecs with it (on Debian: dav1d, libgav1 and 17 Abseil
 * libraries, aom, rav1e, SVT-AV1, libyuv), about 25 libraries whose loading costs a
 * process 4-5 ms and ~280 page faults at start, whether or not it ever touches an AVIF.
 * So the package does not link libavif: this target defines the libavif functions
 * ZoetropeAVIF calls, and each forwards to the library opened with dlopen on first use.
 * Swift code calls libavif's API exactly as declared in <avif/avif.h>. */
#ifndef CZOETROPE_AVIF_H
#define CZOETROPE_AVIF_H

#include <stddef.h>

/* Opens libavif once per process (later calls return the first result). Returns 1 when
 * it is loaded, else 0 with the reason in `message` (NUL-terminated, cut to `capacity`).
 * ZOETROPE_LIBAVIF, when set, names the one file to open; otherwise the library whose
 * version matches the headers this package was built with is looked up by name. Only a
 * library of the headers' major.minor version is accepted (structures are shared). */
int zoetrope_avif_load(char *message, size_t capacity);

/* The file name that was opened, or NULL before a successful load. */
const char *zoetrope_avif_loaded_name(void);

#endif
