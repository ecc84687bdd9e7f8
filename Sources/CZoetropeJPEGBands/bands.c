#include "CZoetropeJPEGBands.h"

#include <setjmp.h>
#include <stdio.h>
#include <string.h>

#include <jpeglib.h>

/* libjpeg's error manager with a place to jump back to, the status to fill, and the scan
 * limit its progress monitor enforces. */
typedef struct {
    struct jpeg_error_mgr pub;
    struct jpeg_progress_mgr progress;
    jmp_buf jump;
    zoetrope_jpeg_bands_status *status;
    int max_scans;
} band_errors;

static void on_error(j_common_ptr cinfo) {
    band_errors *errors = (band_errors *)cinfo->err;
    char text[JMSG_LENGTH_MAX];
    (*cinfo->err->format_message)(cinfo, text);
    snprintf(errors->status->message, sizeof errors->status->message, "%s", text);
    longjmp(errors->jump, 1);
}

/* Warnings (level -1) are recorded, the first one's text kept; trace messages are dropped. */
static void on_message(j_common_ptr cinfo, int level) {
    band_errors *errors = (band_errors *)cinfo->err;
    if (level >= 0) return;
    if (!errors->status->warned) {
        char text[JMSG_LENGTH_MAX];
        (*cinfo->err->format_message)(cinfo, text);
        snprintf(errors->status->warning, sizeof errors->status->warning, "%s", text);
        errors->status->warned = 1;
    }
    cinfo->err->num_warnings++;
}

/* TurboJPEG's scan limit, with its message. */
static void on_progress(j_common_ptr cinfo) {
    band_errors *errors = (band_errors *)cinfo->err;
    if (cinfo->is_decompressor && ((j_decompress_ptr)cinfo)->input_scan_number > errors->max_scans) {
        snprintf(errors->status->message, sizeof errors->status->message,
                 "Progressive JPEG image has more than %d scans", errors->max_scans);
        longjmp(errors->jump, 1);
    }
}

int zoetrope_jpeg_decode_bands(const uint8_t *bytes, size_t count, uint32_t width, uint32_t height,
                               uint8_t *pixels, size_t row_stride, uint32_t band_rows, int max_scans,
                               zoetrope_jpeg_rows_ready ready, void *context,
                               zoetrope_jpeg_bands_status *status) {
    struct jpeg_decompress_struct dinfo;
    band_errors errors;
    memset(status, 0, sizeof *status);
    memset(&dinfo, 0, sizeof dinfo);
    dinfo.err = jpeg_std_error(&errors.pub);
    errors.pub.error_exit = on_error;
    errors.pub.emit_message = on_message;
    errors.status = status;
    errors.max_scans = max_scans;
    if (band_rows < 1) band_rows = 1;
    if (setjmp(errors.jump)) {
        jpeg_destroy_decompress(&dinfo);
        return ZOETROPE_JPEG_BANDS_ERROR;
    }
    jpeg_create_decompress(&dinfo);
    errors.progress.progress_monitor = on_progress;
    dinfo.progress = &errors.progress;
    jpeg_mem_src(&dinfo, (unsigned char *)bytes, (unsigned long)count);
    jpeg_read_header(&dinfo, TRUE);
    status->width = dinfo.image_width;
    status->height = dinfo.image_height;
    status->cmyk = dinfo.jpeg_color_space == JCS_CMYK || dinfo.jpeg_color_space == JCS_YCCK;
    if (dinfo.image_width != width || dinfo.image_height != height || status->cmyk) {
        jpeg_destroy_decompress(&dinfo);
        return ZOETROPE_JPEG_BANDS_MISMATCH;
    }
    dinfo.out_color_space = JCS_EXT_RGBA;
    jpeg_start_decompress(&dinfo);
    uint32_t band_start = 0;
    while (dinfo.output_scanline < dinfo.output_height) {
        uint32_t band_end = band_start + band_rows;
        if (band_end > dinfo.output_height) band_end = dinfo.output_height;
        while (dinfo.output_scanline < band_end) {
            JSAMPROW rows[16];
            JDIMENSION wanted = band_end - dinfo.output_scanline;
            if (wanted > 16) wanted = 16;
            for (JDIMENSION i = 0; i < wanted; i++) rows[i] = pixels + (size_t)(dinfo.output_scanline + i) * row_stride;
            if (jpeg_read_scanlines(&dinfo, rows, wanted) == 0) break;  /* a suspending source only */
        }
        if (dinfo.output_scanline <= band_start) break;
        ready(context, band_start, dinfo.output_scanline - band_start);
        band_start = dinfo.output_scanline;
    }
    jpeg_finish_decompress(&dinfo);
    jpeg_destroy_decompress(&dinfo);
    return ZOETROPE_JPEG_BANDS_OK;
}
