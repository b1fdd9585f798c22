import Foundation
import Activity

/// Client request bodies as `APIParams` reads them. The input is read as a form body (and as a
/// query string) and as a JSON body: neither crashes; a form is refused only for too many
/// pairs, and what is accepted holds at most `APIParams.maxValues` values, none with a NUL.
/// Every value read as a `limit` and as an `offset` lands in its range or is refused as out of
/// range, and `IntParameter.integer` agrees with `Int` wherever `Int` can read the text.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzAPIParams(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let text = fuzzText(start, count)
    checkForm(text)
    checkJSON(Data(bytes: start, count: count))
    return 0
}

private func checkForm(_ text: String) {
    var params = APIParams()
    let separators = text.utf8.filter { $0 == UInt8(ascii: "&") }.count
    do {
        try params.addForm(text)
    } catch {
        fuzzCheck(separators >= APIParams.maxValues, "form of \(separators) pairs refused: \(error)")
        return
    }
    checkValues(params)
}

private func checkJSON(_ data: Data) {
    var params = APIParams()
    do { try params.addJSON(data) } catch { return }
    checkValues(params)
}

private func checkValues(_ params: APIParams) {
    let all = params.values.values.flatMap { $0 }
    fuzzCheck(all.count <= APIParams.maxValues, "\(all.count) values accepted")
    fuzzCheck(!params.values.keys.contains { $0.utf8.contains(0) } && !all.contains { $0.utf8.contains(0) }, "a NUL was kept")
    let limit = IntParameter.limit(default: 20, max: 40)
    for value in all.prefix(50) {
        if let number = Int(value.trimmingCharacters(in: .whitespaces)) {
            fuzzCheck(IntParameter.integer(value) == number, "integer(\(value)) is not \(number)")
        }
        let size = try? limit.value(value)
        fuzzCheck(size.map(limit.range.contains) == true, "limit \(String(describing: size)) for \(value)")
        do {
            let offset = try IntParameter.searchOffset.value(value)
            fuzzCheck(IntParameter.searchOffset.range.contains(offset), "offset \(offset) for \(value)")
        } catch {
            fuzzCheck((IntParameter.integer(value) ?? 0) > IntParameter.searchOffset.range.upperBound, "offset \(value) refused")
        }
    }
}
