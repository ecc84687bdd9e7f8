/* A small C shim over libjpeg-turbo's decompressor for ZoetropeJPEG's incremental source:
 * a source manager that suspends (fill_input_buffer returns FALSE) where the bytes received
 * end, buffered-image mode (one output pass per completed scan), and libjpeg's errors caught
 * by setjmp here, so a longjmp never crosses Swift frames. Warnings are kept, never printed.
 *
 * The caller holds the file's bytes; each call is given where they are now and how many
 * there are (they may have moved since the last call), and the stream resumes at the offset
 * libjpeg had consumed. Every call returns ZOETROPE_JPEG_ERROR with libjpeg's message on
 * failure; after one, the stream is unusable. */
#ifndef CZOETROPE_JPEG_H
#define CZOETROPE_JPEG_H

#include <stddef.h>
#include <stdint.h>

typedef struct zoetrope_jpeg_stream zoetrope_jpeg_stream;

enum {
    ZOETROPE_JPEG_ERROR = -1,
    ZOETROPE_JPEG_SUSPENDED = 0, /* more bytes are needed */
    ZOETROPE_JPEG_HEADER = 1,    /* the header is read, up to the first scan's data */
    ZOETROPE_JPEG_SCAN = 2,      /* a scan's data is complete and the next scan's header read
                                  * (scans_complete grew) */
    ZOETROPE_JPEG_END = 3        /* the end-of-image marker is read */
};

/* What libjpeg read from the header, and how far the stream is. */
typedef struct {
    uint32_t width;
    uint32_t height;
    int components;
    int progressive;
    int cmyk;            /* a CMYK or YCCK file: rendered as 8-bit CMYK */
    size_t consumed;     /* bytes of the file libjpeg has taken */
    int scans_complete;  /* scans whose data has all been read */
    int warned;          /* whether `warning` holds libjpeg's first warning */
    char warning[200];
    char message[200];   /* the error, after ZOETROPE_JPEG_ERROR */
} zoetrope_jpeg_status;

/* A new stream, or NULL when memory is short. `max_scans`: more scans than this is an error. */
zoetrope_jpeg_stream *zoetrope_jpeg_stream_create(int max_scans);
void zoetrope_jpeg_stream_destroy(zoetrope_jpeg_stream *stream);
const zoetrope_jpeg_status *zoetrope_jpeg_stream_status(const zoetrope_jpeg_stream *stream);

/* Reads the header: ZOETROPE_JPEG_HEADER once it is in (the status says what it holds),
 * else SUSPENDED or ERROR. */
int zoetrope_jpeg_read_header(zoetrope_jpeg_stream *stream, const uint8_t *bytes, size_t count);

/* After the header: starts buffered-image decompression, which allocates the whole-image
 * coefficients. libjpeg may allocate no more than `max_memory` bytes in all (0: no bound). */
int zoetrope_jpeg_start(zoetrope_jpeg_stream *stream, long max_memory);

/* Reads on: returns at the next scan's header, once the scan before it is complete (SCAN),
 * at the end of the image (END), or at the end of the bytes (SUSPENDED). */
int zoetrope_jpeg_consume(zoetrope_jpeg_stream *stream, const uint8_t *bytes, size_t count);

/* The data has ended: an end-of-image marker is supplied where the bytes stop (with
 * libjpeg's "Premature end of JPEG file" warning), as libjpeg's own sources do. */
void zoetrope_jpeg_set_data_ended(zoetrope_jpeg_stream *stream);

/* Draws the picture of the scans complete so far (every scan, after END): `height` rows of
 * RGBA8 (CMYK for a CMYK file), `row_stride` bytes apart, the header's size. */
int zoetrope_jpeg_render(zoetrope_jpeg_stream *stream, const uint8_t *bytes, size_t count,
                         uint8_t *destination, size_t row_stride);

#endif
