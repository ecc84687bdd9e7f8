#include "CZoetropePNG.h"

#include <png.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    uint8_t *data;
    size_t count;
    size_t capacity;
    int out_of_memory;
    char *message;
    size_t message_capacity;
} zoetrope_png_output;

static void zoetrope_write_error(png_structp png, png_const_charp text) {
    zoetrope_png_output *o = (zoetrope_png_output *)png_get_error_ptr(png);
    if (o->message != NULL && o->message_capacity > 0)
        snprintf(o->message, o->message_capacity, "%s", text ? text : "libpng error");
    png_longjmp(png, 1); /* back to the setjmp in zoetrope_png_encode_rgba16 */
}

static void zoetrope_write_warning(png_structp png, png_const_charp text) {
    (void)png;
    (void)text;
}

static void zoetrope_write(png_structp png, png_bytep bytes, size_t length) {
    zoetrope_png_output *o = (zoetrope_png_output *)png_get_io_ptr(png);
    if (length > SIZE_MAX - o->count) png_error(png, "the PNG is larger than memory can hold");
    if (o->count + length > o->capacity) {
        size_t next = o->capacity < 65536 ? 65536 : o->capacity;
        while (next < o->count + length) next = next > SIZE_MAX / 2 ? SIZE_MAX : next * 2;
        uint8_t *grown = realloc(o->data, next);
        if (grown == NULL) {
            o->out_of_memory = 1;
            png_error(png, "out of memory for the PNG");
        }
        o->data = grown;
        o->capacity = next;
    }
    memcpy(o->data + o->count, bytes, length);
    o->count += length;
}

static void zoetrope_flush(png_structp png) { (void)png; }

int zoetrope_png_encode_rgba16(const uint8_t *pixels, uint32_t width, uint32_t height, size_t row_stride,
                               int fast, uint8_t **out, size_t *out_count, char *message,
                               size_t message_capacity) {
    *out = NULL;
    *out_count = 0;
    if (message != NULL && message_capacity > 0) message[0] = 0;
    /* On the heap, so that its contents need not be volatile across the longjmp. */
    zoetrope_png_output *o = calloc(1, sizeof *o);
    if (o == NULL) return -1;
    o->message = message;
    o->message_capacity = message_capacity;
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, o, zoetrope_write_error, zoetrope_write_warning);
    png_infop info = png == NULL ? NULL : png_create_info_struct(png);
    if (info == NULL) {
        if (png != NULL) png_destroy_write_struct(&png, NULL);
        if (message != NULL && message_capacity > 0) snprintf(message, message_capacity, "libpng could not allocate its write state");
        free(o);
        return -1;
    }
    if (setjmp(png_jmpbuf(png))) {
        png_destroy_write_struct(&png, &info);
        free(o->data);
        free(o);
        return -1;
    }
    png_set_write_fn(png, o, zoetrope_write, zoetrope_flush);
    if (fast) {
        /* What libpng's simplified API does for PNG_IMAGE_FLAG_FAST. */
        png_set_filter(png, PNG_FILTER_TYPE_BASE, PNG_NO_FILTERS);
        png_set_compression_level(png, 3);
    }
    png_set_IHDR(png, info, width, height, 16, PNG_COLOR_TYPE_RGB_ALPHA, PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_BASE, PNG_FILTER_TYPE_BASE);
    png_write_info(png, info);
    const uint16_t probe = 1;
    if (*(const uint8_t *)&probe == 1) png_set_swap(png); /* PNG stores big-endian samples */
    for (uint32_t y = 0; y < height; y++) png_write_row(png, (png_const_bytep)(pixels + (size_t)y * row_stride));
    png_write_end(png, info);
    png_destroy_write_struct(&png, &info);
    *out = o->data;
    *out_count = o->count;
    free(o);
    return 0;
}

void zoetrope_png_free(uint8_t *bytes) { free(bytes); }
