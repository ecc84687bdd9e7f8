#include <lcms2.h>

// lcms2's pixel-format constants are macros built from shifts, which Swift does not import.
static inline cmsUInt32Number clcms2_type_rgba_8(void) { return TYPE_RGBA_8; }
// 16-bit channels in the machine's byte order.
static inline cmsUInt32Number clcms2_type_rgba_16(void) { return TYPE_RGBA_16; }
// Alpha (and any extra channel) is copied from input to output, untouched.
static inline cmsUInt32Number clcms2_flags_copy_alpha(void) { return cmsFLAGS_COPY_ALPHA; }
// No one-pixel cache inside the transform: one transform is used by several threads at once.
static inline cmsUInt32Number clcms2_flags_no_cache(void) { return cmsFLAGS_NOCACHE; }
// 32-bit float channels: lcms2 evaluates such a transform's pipeline in floating point,
// without the 16-bit grid its optimised 16-bit transforms interpolate (the exact reference).
static inline cmsUInt32Number clcms2_type_rgba_flt(void) { return TYPE_RGBA_FLT; }
