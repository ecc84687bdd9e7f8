#include "CZoetropeColorKernels.h"

#include <string.h>

#if defined(__x86_64__)
#include <immintrin.h>
#define ZOETROPE_X86 1
#endif

/* The kernels must agree to the bit: no fused multiply-add anywhere. */
#pragma STDC FP_CONTRACT OFF
#if defined(__clang__)
#pragma clang fp contract(off)
#endif

typedef float zoetrope_f4 __attribute__((vector_size(16)));
typedef int32_t zoetrope_i4 __attribute__((vector_size(16)));

/* The portable kernel's products: row c * 256 + v holds, for each output k, m[k][c] times
 * channel c's table value v, rounded to float as the AVX-512 kernel rounds it. */
static void matrix_rows(const zoetrope_shaper8 *t, zoetrope_f4 rows[768]) {
    for (int c = 0; c < 3; c++) {
        for (int v = 0; v < 256; v++) {
            float value = (float)t->linear[c * 256 + v];
            zoetrope_f4 row = {t->matrix[c] * value, t->matrix[3 + c] * value, t->matrix[6 + c] * value, 0};
            rows[c * 256 + v] = row;
        }
    }
}

/* One pixel at a time, four float lanes (SSE2, NEON or plain C): the products summed in
 * the order every kernel sums them, clamped to the table and rounded to nearest, ties to
 * even (what cvtps2dq does in the default rounding mode; the 1.5 * 2^23 trick is exact
 * below 2^22). */
static void convert_row_portable(const zoetrope_shaper8 *t, const zoetrope_f4 rows[768], uint8_t *row, long count) {
    const zoetrope_f4 bias = {t->bias, t->bias, t->bias, t->bias}, zero = {0, 0, 0, 0};
    const float last = (float)t->last, magic = 12582912.0f;
    const zoetrope_f4 high = {last, last, last, last}, round = {magic, magic, magic, magic};
    const uint8_t *encode = t->encode;
    for (long x = 0; x < count; x++) {
        uint8_t *p = row + 4 * x;
        zoetrope_f4 s = rows[p[0]] + rows[256 + p[1]];
        s = s + rows[512 + p[2]];
        s = s + bias;
        s = __builtin_elementwise_min(__builtin_elementwise_max(s, zero), high);
        zoetrope_i4 i = __builtin_convertvector((s + round) - round, zoetrope_i4);
        p[0] = encode[i[0]];
        p[1] = encode[i[1]];
        p[2] = encode[i[2]];
    }
}

#if ZOETROPE_X86

#define AVX512 __attribute__((target("avx512f,avx512bw,avx512vbmi")))

/* A 256-entry byte table looked up at 64 byte indices: two 128-entry halves, bit 7 picks. */
AVX512 static inline __m512i lookup256(__m512i index, const __m512i table[4]) {
    __m512i low = _mm512_permutex2var_epi8(table[0], index, table[1]);
    __m512i high = _mm512_permutex2var_epi8(table[2], index, table[3]);
    return _mm512_mask_blend_epi8(_mm512_movepi8_mask(index), low, high);
}

/* 64 pixels: the channels split into byte planes, each curve looked up in registers (its
 * low and high bytes), the matrix in float 16 pixels at a time, and the table indices
 * written to `index` (three planes of 64); the caller reads the encoding table with them. */
AVX512 static inline void indices64_avx512(const uint8_t *pixels, const __m512i curves[3][2][4], const __m512 m[9],
                                           __m512 bias, __m512 last, uint32_t index[3][64]) {
    const __m512i blue = _mm512_set_epi8(
        127, 123, 119, 115, 111, 107, 103, 99, 95, 91, 87, 83, 79, 75, 71, 67, 63, 59, 55, 51, 47, 43, 39, 35, 31, 27,
        23, 19, 15, 11, 7, 3, 126, 122, 118, 114, 110, 106, 102, 98, 94, 90, 86, 82, 78, 74, 70, 66, 62, 58, 54, 50, 46,
        42, 38, 34, 30, 26, 22, 18, 14, 10, 6, 2);
    /* Lanes 0-31 take byte 4j of two vectors (red), lanes 32-63 byte 4(j-32)+1 (green);
     * `blue` above takes byte 4j+2 (and alpha, unused). */
    const __m512i redGreen = _mm512_set_epi8(
        125, 121, 117, 113, 109, 105, 101, 97, 93, 89, 85, 81, 77, 73, 69, 65, 61, 57, 53, 49, 45, 41, 37, 33, 29, 25,
        21, 17, 13, 9, 5, 1, 124, 120, 116, 112, 108, 104, 100, 96, 92, 88, 84, 80, 76, 72, 68, 64, 60, 56, 52, 48, 44,
        40, 36, 32, 28, 24, 20, 16, 12, 8, 4, 0);
    __m512i p0 = _mm512_loadu_si512(pixels), p1 = _mm512_loadu_si512(pixels + 64);
    __m512i p2 = _mm512_loadu_si512(pixels + 128), p3 = _mm512_loadu_si512(pixels + 192);
    __m512i rg01 = _mm512_permutex2var_epi8(p0, redGreen, p1), rg23 = _mm512_permutex2var_epi8(p2, redGreen, p3);
    __m512i ba01 = _mm512_permutex2var_epi8(p0, blue, p1), ba23 = _mm512_permutex2var_epi8(p2, blue, p3);
    __m512i plane[3] = {
        _mm512_shuffle_i64x2(rg01, rg23, 0x44),
        _mm512_shuffle_i64x2(rg01, rg23, 0xee),
        _mm512_shuffle_i64x2(ba01, ba23, 0x44),
    };
    /* Low and high bytes to words in pixel order: pixels 0-31, then 32-63. */
    const __m512i words0 = _mm512_set_epi8(
        95, 31, 94, 30, 93, 29, 92, 28, 91, 27, 90, 26, 89, 25, 88, 24, 87, 23, 86, 22, 85, 21, 84, 20, 83, 19, 82, 18,
        81, 17, 80, 16, 79, 15, 78, 14, 77, 13, 76, 12, 75, 11, 74, 10, 73, 9, 72, 8, 71, 7, 70, 6, 69, 5, 68, 4, 67, 3,
        66, 2, 65, 1, 64, 0);
    const __m512i words1 = _mm512_add_epi8(words0, _mm512_set1_epi8(32));
    __m512 linear[3][4];
    for (int c = 0; c < 3; c++) {
        __m512i low = lookup256(plane[c], curves[c][0]), high = lookup256(plane[c], curves[c][1]);
        __m512i w[2] = {_mm512_permutex2var_epi8(low, words0, high), _mm512_permutex2var_epi8(low, words1, high)};
        for (int g = 0; g < 4; g++) {
            __m256i half = g & 1 ? _mm512_extracti64x4_epi64(w[g >> 1], 1) : _mm512_castsi512_si256(w[g >> 1]);
            linear[c][g] = _mm512_cvtepi32_ps(_mm512_cvtepu16_epi32(half));
        }
    }
    for (int k = 0; k < 3; k++) {
        __m512i sums[4];
        for (int g = 0; g < 4; g++) {
            __m512 s = _mm512_mul_ps(m[3 * k], linear[0][g]);
            s = _mm512_add_ps(s, _mm512_mul_ps(m[3 * k + 1], linear[1][g]));
            s = _mm512_add_ps(s, _mm512_mul_ps(m[3 * k + 2], linear[2][g]));
            s = _mm512_add_ps(s, bias);
            s = _mm512_min_ps(_mm512_max_ps(s, _mm512_setzero_ps()), last);
            sums[g] = _mm512_cvtps_epi32(s);
        }
        for (int g = 0; g < 4; g++) _mm512_storeu_si512(index[k] + 16 * g, sums[g]);
    }
}

AVX512 static void convert_avx512(const zoetrope_shaper8 *t, uint8_t *pixels, long count, long height,
                                  long bytes_per_row) {
    __m512i curves[3][2][4];
    for (int c = 0; c < 3; c++) {
        uint8_t bytes[2][256];
        for (int v = 0; v < 256; v++) {
            bytes[0][v] = (uint8_t)(t->linear[c * 256 + v] & 0xff);
            bytes[1][v] = (uint8_t)(t->linear[c * 256 + v] >> 8);
        }
        for (int h = 0; h < 2; h++)
            for (int q = 0; q < 4; q++) curves[c][h][q] = _mm512_loadu_si512(bytes[h] + 64 * q);
    }
    __m512 m[9];
    for (int k = 0; k < 9; k++) m[k] = _mm512_set1_ps(t->matrix[k]);
    const __m512 bias = _mm512_set1_ps(t->bias);
    const __m512 last = _mm512_set1_ps((float)t->last);
    const uint8_t *encode = t->encode;
    _Alignas(64) uint32_t index[3][64];
    for (long y = 0; y < height; y++) {
        uint8_t *row = pixels + y * bytes_per_row;
        for (long x = 0; x < count; x += 64) {
            uint8_t *p = row + 4 * x;
            long n = count - x < 64 ? count - x : 64;
            /* A short end goes through a copy: the same pixels, the same bytes. */
            _Alignas(64) uint8_t tail[256];
            uint8_t *at = p;
            if (n < 64) {
                memset(tail, 0, sizeof tail);
                memcpy(tail, p, (size_t)n * 4);
                at = tail;
            }
            indices64_avx512(at, curves, m, bias, last, index);
            /* The table read a byte at a time into vector lanes, 16 pixels of a channel to a
             * register, then the channels merged with alpha. */
            for (int g = 0; g < 4; g++) {
                __m128i channel[3];
                for (int k = 0; k < 3; k++) {
                    const uint32_t *i = index[k] + 16 * g;
                    __m128i e = _mm_cvtsi32_si128(encode[i[0]]);
                    e = _mm_insert_epi8(e, encode[i[1]], 1);
                    e = _mm_insert_epi8(e, encode[i[2]], 2);
                    e = _mm_insert_epi8(e, encode[i[3]], 3);
                    e = _mm_insert_epi8(e, encode[i[4]], 4);
                    e = _mm_insert_epi8(e, encode[i[5]], 5);
                    e = _mm_insert_epi8(e, encode[i[6]], 6);
                    e = _mm_insert_epi8(e, encode[i[7]], 7);
                    e = _mm_insert_epi8(e, encode[i[8]], 8);
                    e = _mm_insert_epi8(e, encode[i[9]], 9);
                    e = _mm_insert_epi8(e, encode[i[10]], 10);
                    e = _mm_insert_epi8(e, encode[i[11]], 11);
                    e = _mm_insert_epi8(e, encode[i[12]], 12);
                    e = _mm_insert_epi8(e, encode[i[13]], 13);
                    e = _mm_insert_epi8(e, encode[i[14]], 14);
                    channel[k] = _mm_insert_epi8(e, encode[i[15]], 15);
                }
                __m512i out = _mm512_or_si512(_mm512_cvtepu8_epi32(channel[0]),
                                              _mm512_slli_epi32(_mm512_cvtepu8_epi32(channel[1]), 8));
                out = _mm512_or_si512(out, _mm512_slli_epi32(_mm512_cvtepu8_epi32(channel[2]), 16));
                __m512i original = _mm512_loadu_si512(at + 64 * g);
                _mm512_storeu_si512(at + 64 * g, _mm512_mask_blend_epi8(0x8888888888888888ull, out, original));
            }
            if (n < 64) memcpy(p, tail, (size_t)n * 4);
        }
    }
}

#endif

int zoetrope_shaper8_best_kernel(void) {
#if ZOETROPE_X86
    static int best = -1;
    int known = __atomic_load_n(&best, __ATOMIC_RELAXED);
    if (known >= 0) return known;
    __builtin_cpu_init();
    known = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
                    __builtin_cpu_supports("avx512vbmi")
                ? ZOETROPE_SHAPER8_AVX512
                : ZOETROPE_SHAPER8_PORTABLE;
    __atomic_store_n(&best, known, __ATOMIC_RELAXED);
    return known;
#else
    return ZOETROPE_SHAPER8_PORTABLE;
#endif
}

void zoetrope_shaper8_convert(const zoetrope_shaper8 *table, uint8_t *pixels, long width, long height,
                              long bytes_per_row, int kernel) {
    if (width <= 0 || height <= 0) return;
    int best = zoetrope_shaper8_best_kernel();
    if (kernel < 0 || kernel > best) kernel = best;
#if ZOETROPE_X86
    if (kernel == ZOETROPE_SHAPER8_AVX512) {
        convert_avx512(table, pixels, width, height, bytes_per_row);
        return;
    }
#endif
    zoetrope_f4 rows[768];
    matrix_rows(table, rows);
    for (long y = 0; y < height; y++) convert_row_portable(table, rows, pixels + y * bytes_per_row, width);
}
