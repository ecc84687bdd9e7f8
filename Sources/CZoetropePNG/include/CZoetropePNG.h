/* A small C shim over libpng's full read API for ZoetropeAPNG.
 *
 * libpng reports errors by longjmp; a longjmp must never cross Swift frames, so every
 * libpng call happens inside zoetrope_png_decode_rgba, whose setjmp catches the error and
 * turns it into a return code and a message. Swift only ever sees the return value. */
#ifndef CZOETROPE_PNG_H
#define CZOETROPE_PNG_H

#include <stddef.h>
#include <stdint.h>

/* One run of bytes of the PNG stream; the stream is the segments read in order. */
typedef struct {
    const uint8_t *bytes;
    size_t count;
} zoetrope_png_segment;

/* Bounds handed to libpng before it reads anything. */
typedef struct {
    uint32_t max_width;          /* png_set_user_limits */
    uint32_t max_height;
    size_t chunk_malloc_max;     /* png_set_chunk_malloc_max: largest ancillary chunk buffer */
    uint32_t chunk_cache_max;    /* png_set_chunk_cache_max: most ancillary chunks kept */
} zoetrope_png_limits;

/* How far a decode got, for the caller to keep the rows that decoded and to bound the work. */
typedef struct {
    size_t bytes_read;      /* bytes of the stream libpng asked for (headers and compressed data) */
    uint32_t rows_inflated; /* rows (of every pass) inflated so far */
    int rows_complete;      /* every row is decoded: later data is not read */
    int reading_rows;       /* the header was accepted and rows were being read */
    int data_ended;         /* the failure is image data that ends before the last row */
    uint32_t pass;          /* on failure while reading rows: the pass (0 unless interlaced) ... */
    uint32_t row;           /* ... and the image row whose read failed; rows before it in this
                             * pass, and every earlier pass, are in place */
} zoetrope_png_progress;

/* Decodes the PNG stream in `segments` (any colour type, bit depth or interlacing) to
 * straight-alpha RGBA rows written at `destination`, `row_stride` bytes apart: 8 bits per
 * channel (16-bit samples rounded), or with sixteen != 0 16 bits per channel in the
 * machine's byte order (lower depths widened exactly, v * 65535 / max).
 * The image must be expected_width x expected_height.
 *
 * checksums_verified != 0 says the caller has already checked every chunk's CRC-32 (which
 * covers every compressed byte), so libpng skips its own CRC pass and zlib's Adler-32 of
 * the decompressed data.
 *
 * Once every row is decoded nothing more is read: data past the last row (however much)
 * is ignored, as Chromium does, and inflating it costs at most one 8 KiB read buffer.
 *
 * Returns 0 on success; otherwise -1 with libpng's message in `message` (NUL-terminated,
 * truncated to message_capacity). Rows decoded before an error are left in place, and
 * `progress` (may be NULL) says which. */
int zoetrope_png_decode_rgba(const zoetrope_png_segment *segments, size_t segment_count,
                             uint32_t expected_width, uint32_t expected_height,
                             uint8_t *destination, size_t row_stride, int sixteen,
                             const zoetrope_png_limits *limits, int checksums_verified,
                             char *message, size_t message_capacity,
                             zoetrope_png_progress *progress);

/* Encodes width x height straight-alpha RGBA pixels of 16 bits per channel (machine byte
 * order), rows row_stride bytes apart, as a PNG of colour type 6 and depth 16 (libpng's
 * full write API: the simplified one writes 16-bit only as linear light). fast != 0 uses
 * no filters and zlib level 3, as PNG_IMAGE_FLAG_FAST does. On success returns 0 with the
 * file in *out (free it with zoetrope_png_free); otherwise -1 with libpng's message. */
int zoetrope_png_encode_rgba16(const uint8_t *pixels, uint32_t width, uint32_t height, size_t row_stride,
                               int fast, uint8_t **out, size_t *out_count, char *message,
                               size_t message_capacity);

/* Frees what zoetrope_png_encode_rgba16 returned. */
void zoetrope_png_free(uint8_t *bytes);

#endif
