/* See CZoetropeJPEG.h. Every libjpeg call happens under a setjmp in this file. */
#include "CZoetropeJPEG.h"

#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jpeglib.h>
#include <jerror.h>

struct zoetrope_jpeg_stream {
    struct jpeg_decompress_struct cinfo;
    struct jpeg_error_mgr errors;
    struct jpeg_source_mgr source;
    jmp_buf jump;
    zoetrope_jpeg_status status;
    const uint8_t *base;   /* where the caller's bytes are during a call */
    size_t count;
    size_t pending_skip;   /* bytes skip_input_data asked past the bytes received */
    int data_ended;        /* supply an end-of-image marker where the bytes stop */
    int in_fake_end;       /* next_input_byte points into fake_end */
    int started;
    int output_pending;    /* a jpeg_finish_output that suspended, to call again */
    int max_scans;
    int failed;
};

static const JOCTET fake_end[2] = {0xFF, JPEG_EOI};

static void on_error(j_common_ptr cinfo) {
    zoetrope_jpeg_stream *s = (zoetrope_jpeg_stream *)cinfo->client_data;
    char text[JMSG_LENGTH_MAX];
    (*cinfo->err->format_message)(cinfo, text);
    snprintf(s->status.message, sizeof s->status.message, "%s", text);
    longjmp(s->jump, 1);
}

/* Warnings (level -1) are kept, the first one's text; trace messages are dropped. Nothing
 * is printed. */
static void on_message(j_common_ptr cinfo, int level) {
    zoetrope_jpeg_stream *s = (zoetrope_jpeg_stream *)cinfo->client_data;
    if (level >= 0) return;
    if (!s->status.warned) {
        char text[JMSG_LENGTH_MAX];
        (*cinfo->err->format_message)(cinfo, text);
        snprintf(s->status.warning, sizeof s->status.warning, "%s", text);
        s->status.warned = 1;
    }
    cinfo->err->num_warnings++;
}

static void on_output(j_common_ptr cinfo) { (void)cinfo; }

static void source_init(j_decompress_ptr cinfo) { (void)cinfo; }
static void source_term(j_decompress_ptr cinfo) { (void)cinfo; }

/* No more bytes now: suspend (FALSE), or once the data has ended, an end-of-image marker. */
static boolean source_fill(j_decompress_ptr cinfo) {
    zoetrope_jpeg_stream *s = (zoetrope_jpeg_stream *)cinfo->client_data;
    if (!s->data_ended) return FALSE;
    WARNMS(cinfo, JWRN_JPEG_EOF);
    s->in_fake_end = 1;
    cinfo->src->next_input_byte = fake_end;
    cinfo->src->bytes_in_buffer = 2;
    return TRUE;
}

/* A skip past the bytes received is remembered and taken from the next bytes. */
static void source_skip(j_decompress_ptr cinfo, long n) {
    zoetrope_jpeg_stream *s = (zoetrope_jpeg_stream *)cinfo->client_data;
    struct jpeg_source_mgr *src = cinfo->src;
    if (n <= 0) return;
    if ((size_t)n <= src->bytes_in_buffer) {
        src->next_input_byte += n;
        src->bytes_in_buffer -= (size_t)n;
        return;
    }
    s->pending_skip += (size_t)n - src->bytes_in_buffer;
    src->next_input_byte += src->bytes_in_buffer;
    src->bytes_in_buffer = 0;
}

/* Points the source at the caller's bytes from where libjpeg stopped. */
static void attach(zoetrope_jpeg_stream *s, const uint8_t *bytes, size_t count) {
    s->base = bytes;
    s->count = count;
    size_t offset = s->status.consumed;
    if (offset > count) offset = count;
    size_t skip = s->pending_skip < count - offset ? s->pending_skip : count - offset;
    offset += skip;
    s->pending_skip -= skip;
    s->status.consumed = offset;
    if (!s->in_fake_end) {
        s->source.next_input_byte = bytes + offset;
        s->source.bytes_in_buffer = count - offset;
    }
}

/* Records how far libjpeg got (its bytes may move before the next call). */
static void detach(zoetrope_jpeg_stream *s) {
    if (!s->in_fake_end && s->base != NULL) {
        s->status.consumed = (size_t)(s->source.next_input_byte - (const JOCTET *)s->base);
    } else if (s->in_fake_end) {
        s->status.consumed = s->count;
    }
    /* Nothing to read until the next attach: the bytes may move meanwhile. */
    if (!s->in_fake_end) s->source.bytes_in_buffer = 0;
    s->base = NULL;
}

zoetrope_jpeg_stream *zoetrope_jpeg_stream_create(int max_scans) {
    zoetrope_jpeg_stream *s = calloc(1, sizeof *s);
    if (s == NULL) return NULL;
    s->max_scans = max_scans;
    s->cinfo.err = jpeg_std_error(&s->errors);
    s->errors.error_exit = on_error;
    s->errors.emit_message = on_message;
    s->errors.output_message = on_output;
    s->cinfo.client_data = s;
    if (setjmp(s->jump)) {
        jpeg_destroy_decompress(&s->cinfo);
        free(s);
        return NULL;
    }
    jpeg_create_decompress(&s->cinfo);
    s->source.init_source = source_init;
    s->source.fill_input_buffer = source_fill;
    s->source.skip_input_data = source_skip;
    s->source.resync_to_restart = jpeg_resync_to_restart;
    s->source.term_source = source_term;
    s->cinfo.src = &s->source;
    return s;
}

void zoetrope_jpeg_stream_destroy(zoetrope_jpeg_stream *s) {
    if (s == NULL) return;
    jpeg_destroy_decompress(&s->cinfo);
    free(s);
}

const zoetrope_jpeg_status *zoetrope_jpeg_stream_status(const zoetrope_jpeg_stream *s) { return &s->status; }

void zoetrope_jpeg_set_data_ended(zoetrope_jpeg_stream *s) { s->data_ended = 1; }

int zoetrope_jpeg_read_header(zoetrope_jpeg_stream *s, const uint8_t *bytes, size_t count) {
    if (s->failed) return ZOETROPE_JPEG_ERROR;
    attach(s, bytes, count);
    if (setjmp(s->jump)) {
        s->failed = 1;
        detach(s);
        return ZOETROPE_JPEG_ERROR;
    }
    int result = jpeg_read_header(&s->cinfo, TRUE);
    detach(s);
    if (result == JPEG_SUSPENDED) return ZOETROPE_JPEG_SUSPENDED;
    s->status.width = s->cinfo.image_width;
    s->status.height = s->cinfo.image_height;
    s->status.components = s->cinfo.num_components;
    s->status.progressive = s->cinfo.progressive_mode ? 1 : 0;
    s->status.cmyk = s->cinfo.jpeg_color_space == JCS_CMYK || s->cinfo.jpeg_color_space == JCS_YCCK;
    return ZOETROPE_JPEG_HEADER;
}

int zoetrope_jpeg_start(zoetrope_jpeg_stream *s, long max_memory) {
    if (s->failed) return ZOETROPE_JPEG_ERROR;
    if (setjmp(s->jump)) {
        s->failed = 1;
        return ZOETROPE_JPEG_ERROR;
    }
    /* As TurboJPEG decodes (tjDecompress2 with no flags): the accurate integer IDCT, fancy
     * upsampling, block smoothing of incomplete progressive coefficients. */
    s->cinfo.buffered_image = TRUE;
    s->cinfo.out_color_space = s->status.cmyk ? JCS_CMYK : JCS_EXT_RGBA;
    s->cinfo.dct_method = JDCT_ISLOW;
    if (max_memory > 0) s->cinfo.mem->max_memory_to_use = max_memory;
    /* In buffered-image mode this allocates and returns without reading. */
    jpeg_start_decompress(&s->cinfo);
    if (s->cinfo.output_width != s->status.width || s->cinfo.output_height != s->status.height) {
        snprintf(s->status.message, sizeof s->status.message, "libjpeg-turbo outputs %ux%u for a %ux%u frame",
                 s->cinfo.output_width, s->cinfo.output_height, s->status.width, s->status.height);
        s->failed = 1;
        return ZOETROPE_JPEG_ERROR;
    }
    s->started = 1;
    return ZOETROPE_JPEG_SUSPENDED;
}

int zoetrope_jpeg_consume(zoetrope_jpeg_stream *s, const uint8_t *bytes, size_t count) {
    if (s->failed || !s->started) return ZOETROPE_JPEG_ERROR;
    attach(s, bytes, count);
    if (setjmp(s->jump)) {
        s->failed = 1;
        detach(s);
        return ZOETROPE_JPEG_ERROR;
    }
    int result = ZOETROPE_JPEG_SUSPENDED;
    for (;;) {
        if (s->output_pending) {
            /* The last drawing's end reads on to the next scan's header. */
            if (!jpeg_finish_output(&s->cinfo)) break;
            s->output_pending = 0;
        }
        if (jpeg_input_complete(&s->cinfo)) {
            result = ZOETROPE_JPEG_END;
            break;
        }
        int step = jpeg_consume_input(&s->cinfo);
        if (step == JPEG_SUSPENDED) break;
        if (step == JPEG_REACHED_EOI) {
            result = ZOETROPE_JPEG_END;
            break;
        }
        if (step == JPEG_REACHED_SOS) {
            if (s->cinfo.input_scan_number > s->max_scans) {
                snprintf(s->status.message, sizeof s->status.message, "Progressive JPEG image has more than %d scans",
                         s->max_scans);
                s->failed = 1;
                detach(s);
                return ZOETROPE_JPEG_ERROR;
            }
            /* The scan before is complete, and drawing it needs no more input: block
             * smoothing of a DC scan reads two rows ahead of the row it draws unless the input
             * has moved on to the next scan. */
            s->status.scans_complete = s->cinfo.input_scan_number - 1;
            result = ZOETROPE_JPEG_SCAN;
            break;
        }
    }
    if (result == ZOETROPE_JPEG_END) s->status.scans_complete = s->cinfo.input_scan_number;
    detach(s);
    return result;
}

int zoetrope_jpeg_render(zoetrope_jpeg_stream *s, const uint8_t *bytes, size_t count, uint8_t *destination,
                         size_t row_stride) {
    if (s->failed || !s->started || s->status.scans_complete < 1) return ZOETROPE_JPEG_ERROR;
    attach(s, bytes, count);
    if (setjmp(s->jump)) {
        s->failed = 1;
        detach(s);
        return ZOETROPE_JPEG_ERROR;
    }
    if (s->output_pending) {
        /* Cannot start a pass before the last one ended: read on to the next header first. */
        if (!jpeg_finish_output(&s->cinfo)) {
            detach(s);
            snprintf(s->status.message, sizeof s->status.message, "drawing before the last drawing ended");
            return ZOETROPE_JPEG_ERROR;
        }
        s->output_pending = 0;
    }
    jpeg_start_output(&s->cinfo, s->status.scans_complete);
    while (s->cinfo.output_scanline < s->cinfo.output_height) {
        JSAMPROW rows[16];
        JDIMENSION first = s->cinfo.output_scanline;
        JDIMENSION n = s->cinfo.output_height - first;
        if (n > 16) n = 16;
        for (JDIMENSION k = 0; k < n; k++) rows[k] = destination + (size_t)(first + k) * row_stride;
        if (jpeg_read_scanlines(&s->cinfo, rows, n) == 0) {
            /* Only the scans complete are drawn, so no row waits for input. */
            snprintf(s->status.message, sizeof s->status.message, "a drawn row waited for data");
            s->failed = 1;
            detach(s);
            return ZOETROPE_JPEG_ERROR;
        }
    }
    s->output_pending = 1;
    if (jpeg_finish_output(&s->cinfo)) s->output_pending = 0;
    detach(s);
    return ZOETROPE_JPEG_SUSPENDED;
}
