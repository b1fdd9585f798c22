#ifndef FEDNODE_CVIPS_SHIM_H
#define FEDNODE_CVIPS_SHIM_H
#include <vips/vips.h>

/*
 * libvips operations are variadic and NULL-terminated, which Swift cannot
 * call. Each operation FedNode uses gets one non-variadic wrapper here, with
 * the optional arguments it needs spelled out. Every wrapper returns the
 * libvips status: 0 on success, -1 on failure (message in vips_error_buffer).
 */

/* ---- Loaders: header-only until pixels are requested (sequential access) -- */

/* JPEG from memory. The buffer is not copied: keep it alive while `out` is. */
static inline int fn_vips_jpegload_buffer(void *buf, size_t len, VipsImage **out, VipsFailOn fail_on) {
    return vips_jpegload_buffer(buf, len, out,
        "access", VIPS_ACCESS_SEQUENTIAL, "fail_on", fail_on, NULL);
}

/* JPEG from memory, decoded at 1/shrink scale (1, 2, 4 or 8) by the DCT itself: a 12 MP photo
 * that only ever leaves as a 1920 px copy never has all its pixels in memory. */
static inline int fn_vips_jpegload_buffer_shrink(void *buf, size_t len, VipsImage **out, VipsFailOn fail_on, int shrink) {
    return vips_jpegload_buffer(buf, len, out,
        "access", VIPS_ACCESS_SEQUENTIAL, "fail_on", fail_on, "shrink", shrink, NULL);
}

/* PNG from memory. The buffer is not copied: keep it alive while `out` is. */
static inline int fn_vips_pngload_buffer(void *buf, size_t len, VipsImage **out, VipsFailOn fail_on) {
    return vips_pngload_buffer(buf, len, out,
        "access", VIPS_ACCESS_SEQUENTIAL, "fail_on", fail_on, NULL);
}

/* WebP from memory, first frame only. The buffer is not copied. */
static inline int fn_vips_webpload_buffer(void *buf, size_t len, VipsImage **out, VipsFailOn fail_on) {
    return vips_webpload_buffer(buf, len, out,
        "access", VIPS_ACCESS_SEQUENTIAL, "fail_on", fail_on, "page", 0, "n", 1, NULL);
}

/* GIF from memory, first frame only. The buffer is not copied. */
static inline int fn_vips_gifload_buffer(void *buf, size_t len, VipsImage **out, VipsFailOn fail_on) {
    return vips_gifload_buffer(buf, len, out,
        "access", VIPS_ACCESS_SEQUENTIAL, "fail_on", fail_on, "page", 0, "n", 1, NULL);
}

/* HEIC/AVIF from memory, primary image only, never the embedded thumbnail. */
static inline int fn_vips_heifload_buffer(void *buf, size_t len, VipsImage **out, VipsFailOn fail_on) {
    return vips_heifload_buffer(buf, len, out,
        "access", VIPS_ACCESS_SEQUENTIAL, "fail_on", fail_on,
        "page", 0, "n", 1, "thumbnail", FALSE, NULL);
}

/* Any format libvips recognises; used by tests to read outputs back. */
static inline VipsImage *fn_vips_image_new_from_buffer(const void *buf, size_t len) {
    return vips_image_new_from_buffer(buf, len, "", NULL);
}

/* ---- Geometry and colour ------------------------------------------------ */

/* Rotates/flips upright according to the EXIF orientation and drops the tag. */
static inline int fn_vips_autorot(VipsImage *in, VipsImage **out) {
    return vips_autorot(in, out, NULL);
}

/* Converts from the embedded ICC profile to built-in sRGB, 8 bits per band. */
static inline int fn_vips_icc_transform_srgb(VipsImage *in, VipsImage **out) {
    return vips_icc_transform(in, out, "srgb",
        "embedded", TRUE, "intent", VIPS_INTENT_RELATIVE, "depth", 8, NULL);
}

/* Converts sRGB pixels into a named or built-in profile ("p3", "cmyk") and embeds it. */
static inline int fn_vips_icc_transform_from_srgb(VipsImage *in, VipsImage **out, const char *profile) {
    return vips_icc_transform(in, out, profile,
        "input_profile", "srgb", "embedded", FALSE, "depth", 8, NULL);
}

static inline int fn_vips_colourspace(VipsImage *in, VipsImage **out, VipsInterpretation space) {
    return vips_colourspace(in, out, space, NULL);
}

static inline int fn_vips_cast(VipsImage *in, VipsImage **out, VipsBandFormat format) {
    return vips_cast(in, out, format, NULL);
}

static inline int fn_vips_extract_band(VipsImage *in, VipsImage **out, int band, int n) {
    return vips_extract_band(in, out, band, "n", n, NULL);
}

static inline int fn_vips_extract_area(VipsImage *in, VipsImage **out,
                                       int left, int top, int width, int height) {
    return vips_extract_area(in, out, left, top, width, height, NULL);
}

/* Lanczos3 resize with separate horizontal and vertical factors. */
static inline int fn_vips_resize(VipsImage *in, VipsImage **out, double hscale, double vscale) {
    return vips_resize(in, out, hscale,
        "vscale", vscale, "kernel", VIPS_KERNEL_LANCZOS3, NULL);
}

static inline int fn_vips_premultiply(VipsImage *in, VipsImage **out) {
    return vips_premultiply(in, out, NULL);
}

static inline int fn_vips_unpremultiply(VipsImage *in, VipsImage **out) {
    return vips_unpremultiply(in, out, NULL);
}

/* Composites the alpha band over white. */
static inline int fn_vips_flatten_white(VipsImage *in, VipsImage **out) {
    VipsArrayDouble *background = vips_array_double_newv(3, 255.0, 255.0, 255.0);
    int status = vips_flatten(in, out, "background", background, NULL);
    vips_area_unref(VIPS_AREA(background));
    return status;
}

static inline int fn_vips_min(VipsImage *in, double *out) {
    return vips_min(in, out, NULL);
}

static inline int fn_vips_avg(VipsImage *in, double *out) {
    return vips_avg(in, out, NULL);
}

/* ---- Pixels in memory, for the step FedNode computes itself --------------- */

/* The first pixel of an image whose pixels are all in memory (after vips_image_copy_memory),
 * or NULL with the message in vips_error_buffer. Rows follow each other without padding. */
static inline const VipsPel *fn_vips_image_pixels(VipsImage *image) {
    if (vips_image_wio_input(image))
        return NULL;
    return VIPS_IMAGE_ADDR(image, 0, 0);
}

/* ---- Savers: the buffer is g_malloc'd; release it with g_free ----------- */

/* JPEG; `strip` drops every metadata block (EXIF, XMP, IPTC, ICC). */
static inline int fn_vips_jpegsave_buffer(VipsImage *in, void **buf, size_t *len,
                                          int quality, gboolean interlace, gboolean strip) {
    return vips_jpegsave_buffer(in, buf, len, "Q", quality, "interlace", interlace,
        "optimize_coding", TRUE, "strip", strip, NULL);
}

/* Lossy WebP keeping the alpha band; `strip` drops every metadata block. */
static inline int fn_vips_webpsave_buffer(VipsImage *in, void **buf, size_t *len,
                                          int quality, gboolean strip) {
    return vips_webpsave_buffer(in, buf, len, "Q", quality, "strip", strip, NULL);
}

static inline int fn_vips_pngsave_buffer(VipsImage *in, void **buf, size_t *len) {
    return vips_pngsave_buffer(in, buf, len, NULL);
}

static inline int fn_vips_gifsave_buffer(VipsImage *in, void **buf, size_t *len) {
    return vips_gifsave_buffer(in, buf, len, NULL);
}

static inline int fn_vips_heifsave_buffer(VipsImage *in, void **buf, size_t *len,
                                          VipsForeignHeifCompression compression) {
    return vips_heifsave_buffer(in, buf, len, "compression", compression, "Q", 50, NULL);
}

#endif
