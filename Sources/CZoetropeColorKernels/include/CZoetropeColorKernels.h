#ifndef CZOETROPE_COLOR_KERNELS_H
#define CZOETROPE_COLOR_KERNELS_H

#include <stddef.h>
#include <stdint.h>

/* The matrix-shaper fast path's RGBA8 conversion (ZoetropeColor's MatrixShaperTransform):
 * per channel a curve to linear (a 16-bit table of 256), a 3x3 matrix in float whose rows
 * take those values to encoding-table steps, and sRGB's encoding read from a byte table at
 * the rounded sum. Every kernel does the same float operations in the same order (no fused
 * multiply-add), so all give the same bytes. */
typedef struct {
    /* 768 values: red's curve at v/255 times 65535, then green's, then blue's. */
    const uint16_t *linear;
    /* Row-major: an output's sum is ((m0 * r + m1 * g) + m2 * b) + bias in float, each
     * product rounded, with r, g and b the table values; clamped to 0...last, then rounded
     * to nearest, ties to even. */
    const float *matrix;
    /* The encoding-table index of linear 0. */
    float bias;
    /* The last index of `encode`; sums outside 0...last are clamped. */
    int32_t last;
    /* last + 1 encoded values. */
    const uint8_t *encode;
} zoetrope_shaper8;

/* Which kernel `zoetrope_shaper8_convert` uses on this processor. */
enum {
    /* One pixel at a time in four float lanes (SSE2, NEON or plain C). */
    ZOETROPE_SHAPER8_PORTABLE = 0,
    /* 64 pixels a step, the curves looked up in registers (AVX-512 F, BW and VBMI). */
    ZOETROPE_SHAPER8_AVX512 = 1,
};

/* The fastest kernel this processor runs. */
int zoetrope_shaper8_best_kernel(void);

/* Converts `height` rows of `width` straight RGBA8 pixels in place, `bytes_per_row` apart;
 * alpha is left as it is. `kernel` is one of the values above that this processor runs,
 * or -1 for the best one. Safe to call from several threads at once. */
void zoetrope_shaper8_convert(const zoetrope_shaper8 *table, uint8_t *pixels, long width, long height,
                              long bytes_per_row, int kernel);

#endif
