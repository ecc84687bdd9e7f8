#include "CZoetropePNG.h"

#include <png.h>
#include <setjmp.h>
#include <stdio.h>
#include <string.h>

typedef struct {
    const zoetrope_png_segment *segments;
    size_t count;
    size_t index;
    size_t offset;
    char *message;
    size_t capacity;
    char warning[128]; /* the first warning, which often says why an error follows */
    zoetrope_png_progress *progress; /* never NULL (points at a local when the caller passes none) */
    uint32_t rows_expected;          /* rows libpng inflates: the image's, or every pass's */
} zoetrope_reader;

static void zoetrope_set_message(zoetrope_reader *r, const char *text) {
    if (r->message == NULL || r->capacity == 0) return;
    size_t n = strlen(text);
    if (n >= r->capacity) n = r->capacity - 1;
    memcpy(r->message, text, n);
    r->message[n] = 0;
}

static void zoetrope_on_error(png_structp png, png_const_charp text) {
    zoetrope_reader *r = (zoetrope_reader *)png_get_error_ptr(png);
    /* libpng's words for image data that inflates to fewer bytes than the rows need (the
     * zlib stream ends, or the data chunks run out, before the last row). */
    if (text != NULL && r->progress->reading_rows && strcmp(text, "Not enough image data") == 0)
        r->progress->data_ended = 1;
    char combined[384];
    if (r->warning[0] != 0)
        snprintf(combined, sizeof combined, "%s (%s)", text ? text : "libpng error", r->warning);
    else
        snprintf(combined, sizeof combined, "%s", text ? text : "libpng error");
    zoetrope_set_message(r, combined);
    png_longjmp(png, 1); /* back to the setjmp in zoetrope_png_decode_rgba, never past it */
}

static void zoetrope_on_warning(png_structp png, png_const_charp text) {
    zoetrope_reader *r = (zoetrope_reader *)png_get_error_ptr(png);
    if (r->warning[0] == 0 && text != NULL) snprintf(r->warning, sizeof r->warning, "%s", text);
}

static void zoetrope_read(png_structp png, png_bytep out, size_t length) {
    zoetrope_reader *r = (zoetrope_reader *)png_get_io_ptr(png);
    /* Every row is in place: after the last row libpng would inflate the rest of the zlib
     * stream to look for its end, so the work would follow the compressed data, not the
     * image (a 1x1 frame with a 1 GiB stream). Stop it here; the setjmp handler sees the
     * rows are complete and reports success. libpng has at most one read buffer of data
     * (PNG_IDAT_READ_SIZE, 8 KiB) left to inflate when it asks. */
    if (r->progress->rows_complete) png_error(png, "zoetrope: every row is decoded");
    r->progress->bytes_read += length;
    while (length > 0) {
        if (r->index >= r->count) png_error(png, "the frame's PNG stream ends early");
        const zoetrope_png_segment *s = &r->segments[r->index];
        size_t available = s->count - r->offset;
        size_t n = length < available ? length : available;
        if (n > 0) memcpy(out, s->bytes + r->offset, n);
        out += n;
        length -= n;
        r->offset += n;
        if (r->offset == s->count) {
            r->index++;
            r->offset = 0;
        }
    }
}

/* Called by libpng for each row it inflates (a user transform that changes nothing),
 * before the row is copied out and before libpng's end-of-image step. */
static void zoetrope_row_inflated(png_structp png, png_row_infop row_info, png_bytep data) {
    (void)row_info;
    (void)data;
    zoetrope_reader *r = (zoetrope_reader *)png_get_io_ptr(png);
    r->progress->rows_inflated++;
    if (r->progress->rows_inflated >= r->rows_expected) r->progress->rows_complete = 1;
}

int zoetrope_png_decode_rgba(const zoetrope_png_segment *segments, size_t segment_count,
                             uint32_t expected_width, uint32_t expected_height,
                             uint8_t *destination, size_t row_stride, int sixteen,
                             const zoetrope_png_limits *limits, int checksums_verified,
                             char *message, size_t message_capacity,
                             zoetrope_png_progress *progress) {
    zoetrope_png_progress ignored;
    if (progress == NULL) progress = &ignored;
    memset(progress, 0, sizeof *progress);
    zoetrope_reader reader = {segments, segment_count, 0, 0, message, message_capacity, {0}, progress, 0};
    if (message != NULL && message_capacity > 0) message[0] = 0;
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &reader, zoetrope_on_error, zoetrope_on_warning);
    if (png == NULL) {
        zoetrope_set_message(&reader, "libpng could not allocate its read state");
        return -1;
    }
    png_infop info = png_create_info_struct(png);
    if (info == NULL) {
        png_destroy_read_struct(&png, NULL, NULL);
        zoetrope_set_message(&reader, "libpng could not allocate its info state");
        return -1;
    }
    if (setjmp(png_jmpbuf(png))) {
        png_destroy_read_struct(&png, &info, NULL);
        if (progress->rows_complete) {
            /* Stopped (or failed) after the last row: the image is whole. Data past it,
             * or a stream that does not end properly after it, is ignored, as in Chromium. */
            if (message != NULL && message_capacity > 0) message[0] = 0;
            return 0;
        }
        return -1;
    }
    png_set_user_limits(png, limits->max_width, limits->max_height);
    png_set_chunk_malloc_max(png, limits->chunk_malloc_max);
    png_set_chunk_cache_max(png, limits->chunk_cache_max);
    if (checksums_verified) {
        png_set_crc_action(png, PNG_CRC_QUIET_USE, PNG_CRC_QUIET_USE);
#if defined(PNG_IGNORE_ADLER32) && defined(PNG_SET_OPTION_SUPPORTED)
        png_set_option(png, PNG_IGNORE_ADLER32, PNG_OPTION_ON);
#endif
    }
    png_set_read_fn(png, &reader, zoetrope_read);
    png_set_compression_buffer_size(png, 8192); /* on a read struct: the IDAT read size */
    png_read_info(png, info);
    if (png_get_image_width(png, info) != expected_width || png_get_image_height(png, info) != expected_height)
        png_error(png, "the frame's PNG stream has an unexpected size");
    /* Everything to 8-bit RGBA: palette and low-depth grey expand, tRNS becomes alpha,
     * 16-bit samples are scaled with rounding, grey becomes RGB, opaque images get A = 255.
     * Or to 16-bit RGBA: every sample widened exactly to 16 bits, in the machine's byte
     * order (PNG stores big-endian). No gamma or colour-space conversion: the stored
     * values are delivered. */
    png_set_expand(png);
    if (sixteen) {
        png_set_expand_16(png);
        const uint16_t probe = 1;
        if (*(const uint8_t *)&probe == 1) png_set_swap(png);
    } else {
        png_set_scale_16(png);
    }
    png_set_gray_to_rgb(png);
    png_set_add_alpha(png, sixteen ? 0xFFFF : 0xFF, PNG_FILLER_AFTER);
    int passes = png_set_interlace_handling(png);
    png_set_read_user_transform_fn(png, zoetrope_row_inflated);
    png_read_update_info(png, info);
    if (png_get_rowbytes(png, info) != (size_t)expected_width * (sixteen ? 8 : 4))
        png_error(png, sixteen ? "libpng did not produce 16-bit RGBA rows" : "libpng did not produce 8-bit RGBA rows");
    if (passes > 1) {
        /* Adam7: libpng inflates the rows of each pass that has pixels. */
        for (int pass = 0; pass < 7; pass++) {
            if (PNG_PASS_COLS(expected_width, pass) > 0) reader.rows_expected += PNG_PASS_ROWS(expected_height, pass);
        }
    } else {
        reader.rows_expected = expected_height;
    }
    progress->reading_rows = 1;
    for (int pass = 0; pass < passes; pass++) {
        uint8_t *row = destination;
        progress->pass = (uint32_t)pass;
        for (uint32_t y = 0; y < expected_height; y++, row += row_stride) {
            progress->row = y;
            png_read_row(png, row, NULL);
        }
    }
    png_destroy_read_struct(&png, &info, NULL);
    return 0;
}
