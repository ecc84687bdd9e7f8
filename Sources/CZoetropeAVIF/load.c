/* libavif opened on first use; see CZoetropeAVIF.h for why. */
#include "CZoetropeAVIF.h"

#include <avif/avif.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Every libavif function the package (its sources and tests) calls. One missing here is
 * an undefined symbol when linking, never a silent fallback. */
#define ZOETROPE_AVIF_FUNCTIONS(X) \
    X(avifVersion) \
    X(avifCodecChoiceFromName) \
    X(avifCodecName) \
    X(avifCodecVersions) \
    X(avifDecoderCreate) \
    X(avifDecoderDestroy) \
    X(avifDecoderIsKeyframe) \
    X(avifDecoderNextImage) \
    X(avifDecoderNthImage) \
    X(avifDecoderNthImageMaxExtent) \
    X(avifDecoderNthImageTiming) \
    X(avifDecoderParse) \
    X(avifDecoderSetIO) \
    X(avifDecoderSetSource) \
    X(avifEncoderAddImage) \
    X(avifEncoderCreate) \
    X(avifEncoderDestroy) \
    X(avifEncoderFinish) \
    X(avifEncoderSetCodecSpecificOption) \
    X(avifGetPixelFormatInfo) \
    X(avifImageCreate) \
    X(avifImageCreateEmpty) \
    X(avifImageDestroy) \
    X(avifImageRGBToYUV) \
    X(avifImageSetMetadataExif) \
    X(avifImageSetMetadataXMP) \
    X(avifImageSetProfileICC) \
    X(avifImageSetViewRect) \
    X(avifImageYUVToRGB) \
    X(avifLibYUVVersion) \
    X(avifRGBImageSetDefaults) \
    X(avifRWDataFree) \
    X(avifResultToString)

static struct {
#define ZOETROPE_AVIF_POINTER(name) __typeof__(&name) name;
    ZOETROPE_AVIF_FUNCTIONS(ZOETROPE_AVIF_POINTER)
#undef ZOETROPE_AVIF_POINTER
} library;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int loaded;
static char failure[768];
static char openedName[256];

/* Names to try, the one matching the headers' version first. The version check below is
 * what makes a name safe, so a generic name may follow. */
static const char *const candidates[] = {
#if defined(__APPLE__)
    "libavif.16.dylib", "libavif.15.dylib", "libavif.dylib",
    "/opt/homebrew/lib/libavif.dylib", "/usr/local/lib/libavif.dylib",
#else
#if AVIF_VERSION_MAJOR == 0 && AVIF_VERSION_MINOR == 11
    "libavif.so.15",
#elif AVIF_VERSION_MAJOR == 1
    "libavif.so.16",
#endif
    "libavif.so",
#endif
};

/* Appends to `failure` without overflowing it. */
static void note(const char *format, const char *a, const char *b) {
    size_t used = strlen(failure);
    if (used + 1 < sizeof failure) snprintf(failure + used, sizeof failure - used, format, a, b);
}

/* Opens `name` and takes every function from it when its version is the headers'. */
static int tryOpen(const char *file) {
    void *handle = dlopen(file, RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
        const char *why = dlerror();
        note("%s%s", failure[0] ? "; " : "", why ? why : file);
        return 0;
    }
    __typeof__(&avifVersion) version = (__typeof__(&avifVersion))dlsym(handle, "avifVersion");
    char expected[32];
    snprintf(expected, sizeof expected, "%d.%d.", AVIF_VERSION_MAJOR, AVIF_VERSION_MINOR);
    if (!version) {
        note("%s%s has no avifVersion: not libavif", failure[0] ? "; " : "", file);
        dlclose(handle);
        return 0;
    }
    const char *found = version();
    if (strncmp(found, expected, strlen(expected)) != 0) {
        note("%s%s", failure[0] ? "; " : "", file);
        note(" is libavif %s, not the %s* this build needs", found, expected);
        dlclose(handle);
        return 0;
    }
#define ZOETROPE_AVIF_RESOLVE(name) \
    library.name = (__typeof__(library.name))dlsym(handle, #name); \
    if (!library.name) { \
        note("%s%s lacks " #name, failure[0] ? "; " : "", file); \
        dlclose(handle); \
        return 0; \
    }
    ZOETROPE_AVIF_FUNCTIONS(ZOETROPE_AVIF_RESOLVE)
#undef ZOETROPE_AVIF_RESOLVE
    snprintf(openedName, sizeof openedName, "%s", file);
    return 1;
}

static void loadOnce(void) {
    const char *chosen = getenv("ZOETROPE_LIBAVIF");
    if (chosen && chosen[0]) {
        loaded = tryOpen(chosen);
    } else {
        for (size_t i = 0; i < sizeof candidates / sizeof candidates[0] && !loaded; i++) loaded = tryOpen(candidates[i]);
    }
    if (loaded) failure[0] = 0;
}

int zoetrope_avif_load(char *message, size_t capacity) {
    pthread_once(&once, loadOnce);
    if (!loaded && message && capacity) snprintf(message, capacity, "libavif could not be loaded: %s", failure);
    return loaded;
}

const char *zoetrope_avif_loaded_name(void) {
    pthread_once(&once, loadOnce);
    return loaded ? openedName : NULL;
}

/* Called by every forwarder: Swift checks zoetrope_avif_load before its first libavif
 * call, so reaching the abort is a bug in the package, and it says so. */
static inline void require(void) {
    pthread_once(&once, loadOnce);
    if (!loaded) {
        fprintf(stderr, "ZoetropeAVIF: a libavif function was called but libavif could not be loaded: %s\n", failure);
        abort();
    }
}

/* The forwarders: libavif's own declarations, defined here. */
const char *avifVersion(void) { require(); return library.avifVersion(); }
avifCodecChoice avifCodecChoiceFromName(const char *name) { require(); return library.avifCodecChoiceFromName(name); }
const char *avifCodecName(avifCodecChoice choice, avifCodecFlags requiredFlags) {
    require();
    return library.avifCodecName(choice, requiredFlags);
}
void avifCodecVersions(char outBuffer[256]) { require(); library.avifCodecVersions(outBuffer); }
avifDecoder *avifDecoderCreate(void) { require(); return library.avifDecoderCreate(); }
void avifDecoderDestroy(avifDecoder *decoder) { require(); library.avifDecoderDestroy(decoder); }
avifBool avifDecoderIsKeyframe(const avifDecoder *decoder, uint32_t frameIndex) {
    require();
    return library.avifDecoderIsKeyframe(decoder, frameIndex);
}
avifResult avifDecoderNextImage(avifDecoder *decoder) { require(); return library.avifDecoderNextImage(decoder); }
avifResult avifDecoderNthImage(avifDecoder *decoder, uint32_t frameIndex) {
    require();
    return library.avifDecoderNthImage(decoder, frameIndex);
}
avifResult avifDecoderNthImageMaxExtent(const avifDecoder *decoder, uint32_t frameIndex, avifExtent *outExtent) {
    require();
    return library.avifDecoderNthImageMaxExtent(decoder, frameIndex, outExtent);
}
avifResult avifDecoderNthImageTiming(const avifDecoder *decoder, uint32_t frameIndex, avifImageTiming *outTiming) {
    require();
    return library.avifDecoderNthImageTiming(decoder, frameIndex, outTiming);
}
avifResult avifDecoderParse(avifDecoder *decoder) { require(); return library.avifDecoderParse(decoder); }
void avifDecoderSetIO(avifDecoder *decoder, avifIO *io) { require(); library.avifDecoderSetIO(decoder, io); }
avifResult avifDecoderSetSource(avifDecoder *decoder, avifDecoderSource source) {
    require();
    return library.avifDecoderSetSource(decoder, source);
}
avifResult avifEncoderAddImage(avifEncoder *encoder, const avifImage *image, uint64_t durationInTimescales,
                               avifAddImageFlags addImageFlags) {
    require();
    return library.avifEncoderAddImage(encoder, image, durationInTimescales, addImageFlags);
}
avifEncoder *avifEncoderCreate(void) { require(); return library.avifEncoderCreate(); }
void avifEncoderDestroy(avifEncoder *encoder) { require(); library.avifEncoderDestroy(encoder); }
avifResult avifEncoderFinish(avifEncoder *encoder, avifRWData *output) {
    require();
    return library.avifEncoderFinish(encoder, output);
}
/* libavif 1.0 made the option setter return an avifResult; 0.11's returns nothing. */
#if AVIF_VERSION_MAJOR >= 1
avifResult avifEncoderSetCodecSpecificOption(avifEncoder *encoder, const char *key, const char *value) {
    require();
    return library.avifEncoderSetCodecSpecificOption(encoder, key, value);
}
#else
void avifEncoderSetCodecSpecificOption(avifEncoder *encoder, const char *key, const char *value) {
    require();
    library.avifEncoderSetCodecSpecificOption(encoder, key, value);
}
#endif
void avifGetPixelFormatInfo(avifPixelFormat format, avifPixelFormatInfo *info) {
    require();
    library.avifGetPixelFormatInfo(format, info);
}
avifImage *avifImageCreate(uint32_t width, uint32_t height, uint32_t depth, avifPixelFormat yuvFormat) {
    require();
    return library.avifImageCreate(width, height, depth, yuvFormat);
}
avifImage *avifImageCreateEmpty(void) { require(); return library.avifImageCreateEmpty(); }
void avifImageDestroy(avifImage *image) { require(); library.avifImageDestroy(image); }
avifResult avifImageSetViewRect(avifImage *dstImage, const avifImage *srcImage, const avifCropRect *rect) {
    require();
    return library.avifImageSetViewRect(dstImage, srcImage, rect);
}
avifResult avifImageRGBToYUV(avifImage *image, const avifRGBImage *rgb) { require(); return library.avifImageRGBToYUV(image, rgb); }
/* libavif 1.0 made the three setters return an avifResult; 0.11's return nothing. */
#if AVIF_VERSION_MAJOR >= 1
avifResult avifImageSetMetadataExif(avifImage *image, const uint8_t *exif, size_t exifSize) {
    require();
    return library.avifImageSetMetadataExif(image, exif, exifSize);
}
avifResult avifImageSetMetadataXMP(avifImage *image, const uint8_t *xmp, size_t xmpSize) {
    require();
    return library.avifImageSetMetadataXMP(image, xmp, xmpSize);
}
avifResult avifImageSetProfileICC(avifImage *image, const uint8_t *icc, size_t iccSize) {
    require();
    return library.avifImageSetProfileICC(image, icc, iccSize);
}
#else
void avifImageSetMetadataExif(avifImage *image, const uint8_t *exif, size_t exifSize) {
    require();
    library.avifImageSetMetadataExif(image, exif, exifSize);
}
void avifImageSetMetadataXMP(avifImage *image, const uint8_t *xmp, size_t xmpSize) {
    require();
    library.avifImageSetMetadataXMP(image, xmp, xmpSize);
}
void avifImageSetProfileICC(avifImage *image, const uint8_t *icc, size_t iccSize) {
    require();
    library.avifImageSetProfileICC(image, icc, iccSize);
}
#endif
avifResult avifImageYUVToRGB(const avifImage *image, avifRGBImage *rgb) { require(); return library.avifImageYUVToRGB(image, rgb); }
unsigned int avifLibYUVVersion(void) { require(); return library.avifLibYUVVersion(); }
void avifRGBImageSetDefaults(avifRGBImage *rgb, const avifImage *image) { require(); library.avifRGBImageSetDefaults(rgb, image); }
void avifRWDataFree(avifRWData *raw) { require(); library.avifRWDataFree(raw); }
const char *avifResultToString(avifResult result) { require(); return library.avifResultToString(result); }
