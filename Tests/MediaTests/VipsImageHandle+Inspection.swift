@testable import Core
import CVips

@testable import FedNode

extension VipsImageHandle {
    /// The EXIF orientation libvips reports (1 when there is none).
    var orientation: Int {
        withImage { Int(fn_vips_image_get_orientation($0)) }
    }

    /// The number of frames the file holds, as reported by its loader.
    var pageCount: Int {
        withImage { Int(fn_vips_image_get_n_pages($0)) }
    }

    /// Sets an integer metadata field such as `orientation` or `page-height`.
    func setInt(_ name: String, _ value: Int) {
        withImage { fn_vips_image_set_int($0, name, Int32(value)) }
    }
}
