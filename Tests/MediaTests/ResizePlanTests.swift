@testable import Core
import Testing

@testable import FedNode

/// The pure geometry behind every output size.
@Suite("Resize and crop arithmetic")
struct ResizePlanTests {
    @Test("fit shrinks the long side and never enlarges")
    func fit() {
        #expect(ResizePlan.fit(width: 3000, height: 2000, maxSide: 1920).crop == PixelRect(x: 0, y: 0, width: 1920, height: 1280))
        #expect(ResizePlan.fit(width: 2000, height: 3000, maxSide: 1920).crop == PixelRect(x: 0, y: 0, width: 1280, height: 1920))
        #expect(ResizePlan.fit(width: 800, height: 600, maxSide: 1920).scaledWidth == 800)
        #expect(ResizePlan.fit(width: 5000, height: 1, maxSide: 1920).scaledHeight == 1)
    }

    @Test("fill covers the target and centres the crop by default")
    func fillCentre() {
        let plan = ResizePlan.fill(width: 3000, height: 2000, targetWidth: 500, targetHeight: 500, focus: .centre, upscale: false)
        #expect(plan.scaledWidth == 750 && plan.scaledHeight == 500)
        #expect(plan.crop == PixelRect(x: 125, y: 0, width: 500, height: 500))
    }

    @Test("the crop window follows the focal point but stays inside the image")
    func fillFocus() {
        let right = ResizePlan.fill(width: 3000, height: 2000, targetWidth: 500, targetHeight: 500, focus: FocalPoint(x: 1, y: 0), upscale: false)
        #expect(right.crop.x == 250)
        let slightlyLeft = ResizePlan.fill(width: 3000, height: 2000, targetWidth: 500, targetHeight: 500, focus: FocalPoint(x: -0.2, y: 0), upscale: false)
        // Focal x = 0.4 * 750 = 300, so the window starts at 300 - 250 = 50.
        #expect(slightlyLeft.crop.x == 50)
        let top = ResizePlan.fill(width: 2000, height: 3000, targetWidth: 500, targetHeight: 500, focus: FocalPoint(x: 0, y: 1), upscale: false)
        #expect(top.crop.y == 0)
        let bottom = ResizePlan.fill(width: 2000, height: 3000, targetWidth: 500, targetHeight: 500, focus: FocalPoint(x: 0, y: -1), upscale: false)
        #expect(bottom.crop.y == 250)
    }

    @Test("without upscale a small source gives the largest box of the target's shape")
    func fillSmall() {
        let plan = ResizePlan.fill(width: 600, height: 400, targetWidth: 1500, targetHeight: 500, focus: .centre, upscale: false)
        #expect(plan.scaledWidth == 600)
        #expect(plan.crop == PixelRect(x: 0, y: 100, width: 600, height: 200))
    }

    @Test("with upscale a small source is enlarged to the exact target")
    func fillUpscale() {
        let plan = ResizePlan.fill(width: 200, height: 300, targetWidth: 400, targetHeight: 400, focus: .centre, upscale: true)
        #expect(plan.scaledWidth == 400 && plan.scaledHeight == 600)
        #expect(plan.crop == PixelRect(x: 0, y: 100, width: 400, height: 400))
    }

    @Test("focal points clamp and parse Mastodon's form value")
    func focalPoint() {
        #expect(FocalPoint(x: 3, y: -7) == FocalPoint(x: 1, y: -1))
        #expect(FocalPoint(parameter: "-0.5,0.25") == FocalPoint(x: -0.5, y: 0.25))
        #expect(FocalPoint(parameter: "0.5") == nil)
        #expect(FocalPoint(parameter: "nan,1") == nil)
    }
}
