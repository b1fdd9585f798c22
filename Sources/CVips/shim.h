#ifndef FEDNODE_CVIPS_SHIM_H
#define FEDNODE_CVIPS_SHIM_H
#include <dlfcn.h>
#include <stddef.h>
#include <vips/vips.h>

/*
 * libvips is opened on first use, not when the process starts: linked normally, it and the
 * libraries its loaders need (librsvg, OpenEXR, HDF5, ICU, ...) are mapped into every
 * `fednode` process, about 10 MB resident, before any photo arrives. So nothing here calls
 * libvips or GLib by name: each function is looked up in the opened library (`FN_VIPS`), and
 * Swift calls only the `fn_` functions below. Package.swift asks pkg-config for GLib, not
 * libvips, so the link does not name libvips; scripts/check-lazy-vips checks the executable.
 */

/* The libvips soname: 42 for every libvips 8.x. */
#define FN_VIPS_LIBRARY "libvips.so.42"

/* Every libvips and GLib function the wrappers below call. `fn_vips_missing_symbol` checks that
 * the opened library has them all, and `FN_VIPS` refuses (does not compile) a name not listed. */
#define FN_VIPS_SYMBOLS(X) \
    X(vips_init) X(vips_cache_set_max) X(vips_cache_set_max_mem) X(vips_cache_set_max_files) \
    X(vips_concurrency_set) X(vips_block_untrusted_set) X(vips_error_buffer_copy) \
    X(vips_foreign_find_load_buffer) X(g_free) X(g_strfreev) X(g_object_unref) \
    X(vips_image_get_width) X(vips_image_get_height) X(vips_image_get_bands) \
    X(vips_image_get_format) X(vips_image_get_coding) X(vips_image_get_interpretation) \
    X(vips_image_get_n_pages) X(vips_image_get_orientation) X(vips_image_get_orientation_swap) \
    X(vips_image_hasalpha) X(vips_colourspace_issupported) X(vips_image_get_typeof) \
    X(vips_image_get_fields) X(vips_image_remove) X(vips_image_set_int) X(vips_image_set_blob_copy) \
    X(vips_image_copy_memory) X(vips_image_new_from_memory_copy) X(vips_image_write_to_memory) \
    X(vips_image_wio_input) X(vips_image_new_from_buffer) X(vips_jpegload_buffer) \
    X(vips_pngload_buffer) X(vips_webpload_buffer) X(vips_gifload_buffer) X(vips_heifload_buffer) \
    X(vips_autorot) X(vips_icc_transform) X(vips_colourspace) X(vips_cast) X(vips_extract_band) \
    X(vips_extract_area) X(vips_resize) X(vips_premultiply) X(vips_unpremultiply) \
    X(vips_array_double_newv) X(vips_flatten) X(vips_area_unref) X(vips_min) X(vips_avg) \
    X(vips_jpegsave_buffer) X(vips_webpsave_buffer) X(vips_pngsave_buffer) X(vips_gifsave_buffer) \
    X(vips_heifsave_buffer)

#define FN_VIPS_LISTED(name) FN_VIPS_LISTED_##name,
enum { FN_VIPS_SYMBOLS(FN_VIPS_LISTED) FN_VIPS_SYMBOL_COUNT };
#undef FN_VIPS_LISTED

/* libvips with the GLib libraries it needs, or NULL when it cannot be opened
 * (`fn_vips_open_error` says why). The handle is kept per compiled file (this header's statics
 * are); opening the library again only counts another reference. */
static inline void *fn_vips_library(void) {
    static void *handle;
    void *opened = __atomic_load_n(&handle, __ATOMIC_ACQUIRE);
    if (opened == NULL) {
        opened = dlopen(FN_VIPS_LIBRARY, RTLD_NOW | RTLD_GLOBAL);
        if (opened != NULL) __atomic_store_n(&handle, opened, __ATOMIC_RELEASE);
    }
    return opened;
}

/* Why the last dlopen or dlsym on this thread failed, or NULL. */
static inline const char *fn_vips_open_error(void) {
    return dlerror();
}

/* The address of `name` in libvips or the libraries it loaded; NULL when absent. */
static inline void *fn_vips_symbol(const char *name) {
    void *library = fn_vips_library();
    return library == NULL ? NULL : dlsym(library, name);
}

/* The first of `FN_VIPS_SYMBOLS` the opened library lacks (an older libvips 8.x, say), or NULL
 * when it has them all. `Vips.start()` refuses such a library, so no wrapper calls through NULL. */
static inline const char *fn_vips_missing_symbol(void) {
#define FN_VIPS_CHECK(name) if (fn_vips_symbol(#name) == NULL) return #name;
    FN_VIPS_SYMBOLS(FN_VIPS_CHECK)
#undef FN_VIPS_CHECK
    return NULL;
}

/* `*slot`, looked up as `name` the first time. */
static inline void *fn_vips_cached(void **slot, const char *name) {
    void *address = __atomic_load_n(slot, __ATOMIC_ACQUIRE);
    if (address == NULL) {
        address = fn_vips_symbol(name);
        __atomic_store_n(slot, address, __ATOMIC_RELEASE);
    }
    return address;
}

/* `name` from the opened library, typed as libvips' header declares it, looked up once per call
 * site. Only for names in `FN_VIPS_SYMBOLS`, and only once `Vips.start()` succeeded (it checked
 * them all); before that the wrappers are not called. */
#define FN_VIPS(name) (__extension__({ \
    enum { fn_vips_listed = FN_VIPS_LISTED_##name }; \
    static void *fn_vips_slot; \
    (__typeof__(&name))fn_vips_cached(&fn_vips_slot, #name); }))

/* ---- Set-up, errors and memory ------------------------------------------ */

/* vips_init, or -1 when libvips cannot be opened (message from fn_vips_open_error). */
static inline int fn_vips_init(const char *argv0) {
    if (fn_vips_library() == NULL) return -1;
    return FN_VIPS(vips_init)(argv0);
}
static inline void fn_vips_cache_set_max(int max) { FN_VIPS(vips_cache_set_max)(max); }
static inline void fn_vips_cache_set_max_mem(size_t max) { FN_VIPS(vips_cache_set_max_mem)(max); }
static inline void fn_vips_cache_set_max_files(int max) { FN_VIPS(vips_cache_set_max_files)(max); }
static inline void fn_vips_concurrency_set(int concurrency) { FN_VIPS(vips_concurrency_set)(concurrency); }
static inline void fn_vips_block_untrusted_set(gboolean state) { FN_VIPS(vips_block_untrusted_set)(state); }
static inline char *fn_vips_error_buffer_copy(void) { return FN_VIPS(vips_error_buffer_copy)(); }
static inline const char *fn_vips_foreign_find_load_buffer(const void *data, size_t size) {
    return FN_VIPS(vips_foreign_find_load_buffer)(data, size);
}
static inline void fn_g_free(gpointer memory) { FN_VIPS(g_free)(memory); }
static inline void fn_g_strfreev(gchar **strings) { FN_VIPS(g_strfreev)(strings); }
static inline void fn_g_object_unref(gpointer object) { FN_VIPS(g_object_unref)(object); }

/* ---- Images: properties, metadata, memory ------------------------------- */

static inline int fn_vips_image_get_width(const VipsImage *image) { return FN_VIPS(vips_image_get_width)(image); }
static inline int fn_vips_image_get_height(const VipsImage *image) { return FN_VIPS(vips_image_get_height)(image); }
static inline int fn_vips_image_get_bands(const VipsImage *image) { return FN_VIPS(vips_image_get_bands)(image); }
static inline VipsBandFormat fn_vips_image_get_format(const VipsImage *image) { return FN_VIPS(vips_image_get_format)(image); }
static inline VipsCoding fn_vips_image_get_coding(const VipsImage *image) { return FN_VIPS(vips_image_get_coding)(image); }
static inline VipsInterpretation fn_vips_image_get_interpretation(const VipsImage *image) {
    return FN_VIPS(vips_image_get_interpretation)(image);
}
static inline int fn_vips_image_get_n_pages(VipsImage *image) { return FN_VIPS(vips_image_get_n_pages)(image); }
static inline int fn_vips_image_get_orientation(VipsImage *image) { return FN_VIPS(vips_image_get_orientation)(image); }
static inline gboolean fn_vips_image_get_orientation_swap(VipsImage *image) {
    return FN_VIPS(vips_image_get_orientation_swap)(image);
}
static inline gboolean fn_vips_image_hasalpha(VipsImage *image) { return FN_VIPS(vips_image_hasalpha)(image); }
static inline gboolean fn_vips_colourspace_issupported(const VipsImage *image) {
    return FN_VIPS(vips_colourspace_issupported)(image);
}
static inline GType fn_vips_image_get_typeof(const VipsImage *image, const char *name) {
    return FN_VIPS(vips_image_get_typeof)(image, name);
}
static inline gchar **fn_vips_image_get_fields(VipsImage *image) { return FN_VIPS(vips_image_get_fields)(image); }
static inline gboolean fn_vips_image_remove(VipsImage *image, const char *name) {
    return FN_VIPS(vips_image_remove)(image, name);
}
static inline void fn_vips_image_set_int(VipsImage *image, const char *name, int value) {
    FN_VIPS(vips_image_set_int)(image, name, value);
}
static inline void fn_vips_image_set_blob_copy(VipsImage *image, const char *name, const void *data, size_t length) {
    FN_VIPS(vips_image_set_blob_copy)(image, name, data, length);
}
static inline VipsImage *fn_vips_image_copy_memory(VipsImage *image) { return FN_VIPS(vips_image_copy_memory)(image); }
static inline VipsImage *fn_vips_image_new_from_memory_copy(const void *data, size_t size,
                                                           int width, int height, int bands, VipsBandFormat format) {
    return FN_VIPS(vips_image_new_from_memory_copy)(data, size, width, height, bands, format);
}
static inline void *fn_vips_image_write_to_memory(VipsImage *image, size_t *size) {
    return FN_VIPS(vips_image_write_to_memory)(image, size);
}

/*
 * libvips operations are variadic and NULL-terminated, which Swift cannot
 * call. Each operation FedNode uses gets one non-variadic wrapper here, with
 * the optional arguments it needs spelled out. Every wrapper returns the
 * libvips status: 0 on success, -1 on failure (message in vips_error_buffer).
 */

/* ---- Loaders: header-only until pixels are requested (sequential access) -- */

/* JPEG from memory. The buffer is not copied: keep it alive while `out` is. */
static inline int fn_vips_jpegload_buffer(void *buf, size_t len, VipsImage **out, VipsFailOn fail_on) {
    return FN_VIPS(vips_jpegload_buffer)(buf, len, out,
        "access", VIPS_ACCESS_SEQUENTIAL, "fail_on", fail_on, NULL);
}

/* JPEG from memory, decoded at 1/shrink scale (1, 2, 4 or 8) by the DCT itself: a 12 MP photo
 * that only ever leaves as a 1920 px copy never has all its pixels in memory. */
static inline int fn_vips_jpegload_buffer_shrink(void *buf, size_t len, VipsImage **out, VipsFailOn fail_on, int shrink) {
    return FN_VIPS(vips_jpegload_buffer)(buf, len, out,
        "access", VIPS_ACCESS_SEQUENTIAL, "fail_on", fail_on, "shrink", shrink, NULL);
}

/* PNG from memory. The buffer is not copied: keep it alive while `out` is. */
static inline int fn_vips_pngload_buffer(void *buf, size_t len, VipsImage **out, VipsFailOn fail_on) {
    return FN_VIPS(vips_pngload_buffer)(buf, len, out,
        "access", VIPS_ACCESS_SEQUENTIAL, "fail_on", fail_on, NULL);
}

/* WebP from memory, first frame only. The buffer is not copied. */
static inline int fn_vips_webpload_buffer(void *buf, size_t len, VipsImage **out, VipsFailOn fail_on) {
    return FN_VIPS(vips_webpload_buffer)(buf, len, out,
        "access", VIPS_ACCESS_SEQUENTIAL, "fail_on", fail_on, "page", 0, "n", 1, NULL);
}

/* GIF from memory, first frame only. The buffer is not copied. */
static inline int fn_vips_gifload_buffer(void *buf, size_t len, VipsImage **out, VipsFailOn fail_on) {
    return FN_VIPS(vips_gifload_buffer)(buf, len, out,
        "access", VIPS_ACCESS_SEQUENTIAL, "fail_on", fail_on, "page", 0, "n", 1, NULL);
}

/* HEIC/AVIF from memory, primary image only, never the embedded thumbnail. */
static inline int fn_vips_heifload_buffer(void *buf, size_t len, VipsImage **out, VipsFailOn fail_on) {
    return FN_VIPS(vips_heifload_buffer)(buf, len, out,
        "access", VIPS_ACCESS_SEQUENTIAL, "fail_on", fail_on,
        "page", 0, "n", 1, "thumbnail", FALSE, NULL);
}

/* Any format libvips recognises; used by tests to read outputs back. */
static inline VipsImage *fn_vips_image_new_from_buffer(const void *buf, size_t len) {
    return FN_VIPS(vips_image_new_from_buffer)(buf, len, "", NULL);
}

/* ---- Geometry and colour ------------------------------------------------ */

/* Rotates/flips upright according to the EXIF orientation and drops the tag. */
static inline int fn_vips_autorot(VipsImage *in, VipsImage **out) {
    return FN_VIPS(vips_autorot)(in, out, NULL);
}

/* Converts from the embedded ICC profile to built-in sRGB, 8 bits per band. */
static inline int fn_vips_icc_transform_srgb(VipsImage *in, VipsImage **out) {
    return FN_VIPS(vips_icc_transform)(in, out, "srgb",
        "embedded", TRUE, "intent", VIPS_INTENT_RELATIVE, "depth", 8, NULL);
}

/* Converts sRGB pixels into a named or built-in profile ("p3", "cmyk") and embeds it. */
static inline int fn_vips_icc_transform_from_srgb(VipsImage *in, VipsImage **out, const char *profile) {
    return FN_VIPS(vips_icc_transform)(in, out, profile,
        "input_profile", "srgb", "embedded", FALSE, "depth", 8, NULL);
}

static inline int fn_vips_colourspace(VipsImage *in, VipsImage **out, VipsInterpretation space) {
    return FN_VIPS(vips_colourspace)(in, out, space, NULL);
}

static inline int fn_vips_cast(VipsImage *in, VipsImage **out, VipsBandFormat format) {
    return FN_VIPS(vips_cast)(in, out, format, NULL);
}

static inline int fn_vips_extract_band(VipsImage *in, VipsImage **out, int band, int n) {
    return FN_VIPS(vips_extract_band)(in, out, band, "n", n, NULL);
}

static inline int fn_vips_extract_area(VipsImage *in, VipsImage **out,
                                       int left, int top, int width, int height) {
    return FN_VIPS(vips_extract_area)(in, out, left, top, width, height, NULL);
}

/* Lanczos3 resize with separate horizontal and vertical factors. */
static inline int fn_vips_resize(VipsImage *in, VipsImage **out, double hscale, double vscale) {
    return FN_VIPS(vips_resize)(in, out, hscale,
        "vscale", vscale, "kernel", VIPS_KERNEL_LANCZOS3, NULL);
}

static inline int fn_vips_premultiply(VipsImage *in, VipsImage **out) {
    return FN_VIPS(vips_premultiply)(in, out, NULL);
}

static inline int fn_vips_unpremultiply(VipsImage *in, VipsImage **out) {
    return FN_VIPS(vips_unpremultiply)(in, out, NULL);
}

/* Composites the alpha band over white. */
static inline int fn_vips_flatten_white(VipsImage *in, VipsImage **out) {
    VipsArrayDouble *background = FN_VIPS(vips_array_double_newv)(3, 255.0, 255.0, 255.0);
    int status = FN_VIPS(vips_flatten)(in, out, "background", background, NULL);
    FN_VIPS(vips_area_unref)(VIPS_AREA(background));
    return status;
}

static inline int fn_vips_min(VipsImage *in, double *out) {
    return FN_VIPS(vips_min)(in, out, NULL);
}

static inline int fn_vips_avg(VipsImage *in, double *out) {
    return FN_VIPS(vips_avg)(in, out, NULL);
}

/* ---- Pixels in memory, for the step FedNode computes itself --------------- */

/* The first pixel of an image whose pixels are all in memory (after fn_vips_image_copy_memory),
 * or NULL with the message in vips_error_buffer. Rows follow each other without padding. */
static inline const VipsPel *fn_vips_image_pixels(VipsImage *image) {
    if (FN_VIPS(vips_image_wio_input)(image))
        return NULL;
    /* VIPS_IMAGE_ADDR(image, 0, 0), without the macro's call into libvips for the pel size. */
    return image->data;
}

/* ---- Savers: the buffer is g_malloc'd; release it with fn_g_free -------- */

/* JPEG; `strip` drops every metadata block (EXIF, XMP, IPTC, ICC). */
static inline int fn_vips_jpegsave_buffer(VipsImage *in, void **buf, size_t *len,
                                          int quality, gboolean interlace, gboolean strip) {
    return FN_VIPS(vips_jpegsave_buffer)(in, buf, len, "Q", quality, "interlace", interlace,
        "optimize_coding", TRUE, "strip", strip, NULL);
}

/* Lossy WebP keeping the alpha band; `strip` drops every metadata block. */
static inline int fn_vips_webpsave_buffer(VipsImage *in, void **buf, size_t *len,
                                          int quality, gboolean strip) {
    return FN_VIPS(vips_webpsave_buffer)(in, buf, len, "Q", quality, "strip", strip, NULL);
}

static inline int fn_vips_pngsave_buffer(VipsImage *in, void **buf, size_t *len) {
    return FN_VIPS(vips_pngsave_buffer)(in, buf, len, NULL);
}

static inline int fn_vips_gifsave_buffer(VipsImage *in, void **buf, size_t *len) {
    return FN_VIPS(vips_gifsave_buffer)(in, buf, len, NULL);
}

static inline int fn_vips_heifsave_buffer(VipsImage *in, void **buf, size_t *len,
                                          VipsForeignHeifCompression compression) {
    return FN_VIPS(vips_heifsave_buffer)(in, buf, len, "compression", compression, "Q", 50, NULL);
}

#endif
