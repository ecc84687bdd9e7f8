/* libjpeg-turbo's decompressor for a whole file in memory, a band of rows at a time, so that
 * ZoetropeJPEG can convert the colour of each finished band (on another thread, or while it
 * is still in the cache) as the next one decodes. Decodes exactly as TurboJPEG's
 * tjDecompress2 does into RGBA (the same decompressor settings, the same scan limit);
 * libjpeg's errors are caught by setjmp here, so a longjmp never crosses Swift frames, and
 * warnings are kept, never printed. */
#ifndef CZOETROPE_JPEG_BANDS_H
#define CZOETROPE_JPEG_BANDS_H

#include <stddef.h>
#include <stdint.h>

enum {
    ZOETROPE_JPEG_BANDS_OK = 0,
    ZOETROPE_JPEG_BANDS_ERROR = -1,    /* libjpeg's error: `message` */
    ZOETROPE_JPEG_BANDS_MISMATCH = -2  /* not the size asked for, or a CMYK/YCCK file */
};

typedef struct {
    uint32_t width;      /* what the header says (0 before it is read) */
    uint32_t height;
    int cmyk;            /* a CMYK or YCCK file */
    int warned;          /* whether `warning` holds libjpeg's first warning */
    char warning[200];
    char message[200];   /* the error, after ZOETROPE_JPEG_BANDS_ERROR */
} zoetrope_jpeg_bands_status;

/* Called after each band: rows first_row ..< first_row + row_count are final. */
typedef void (*zoetrope_jpeg_rows_ready)(void *context, uint32_t first_row, uint32_t row_count);

/* Decodes `bytes` into `pixels` as RGBA8 (alpha 255), `row_stride` bytes apart, calling
 * `ready` after every `band_rows` rows and after the last. The file must be `width` ×
 * `height` and not CMYK, else nothing is written and MISMATCH is returned. More than
 * `max_scans` scans is an error (TurboJPEG's TJFLAG_LIMITSCANS takes 500). */
int zoetrope_jpeg_decode_bands(const uint8_t *bytes, size_t count, uint32_t width, uint32_t height,
                               uint8_t *pixels, size_t row_stride, uint32_t band_rows, int max_scans,
                               zoetrope_jpeg_rows_ready ready, void *context,
                               zoetrope_jpeg_bands_status *status);

#endif
