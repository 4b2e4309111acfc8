#include "app/common/web_page.h"

#include "app/common/trace_json.h"
#include "app/common/web_page_template.h"
#include "model/core/letterbox.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace cl {

namespace {

// The seed's positional encoding, as the Positions panel draws it (float32: t = 1e-4^(2i/W)).
nlohmann::json positionalEncoding(int64_t length, int64_t width) {
    nlohmann::json rows = nlohmann::json::array();
    for (int64_t pos = 0; pos < length; ++pos) {
        nlohmann::json r = nlohmann::json::array();
        for (int64_t i = 0; i < width / 2; ++i) {
            const float t = std::pow(1e-4f, float(2 * i) / float(width));
            const float a = float(pos) * t;
            r.push_back(std::round(std::sin(a) * 1e4) / 1e4);
            r.push_back(std::round(std::cos(a) * 1e4) / 1e4);
        }
        rows.push_back(std::move(r));
    }
    return rows;
}

// JSON inside <script>: "<" written as \u003c, so no text from a checkpoint (a word such as
// "</script>") can end the block or open markup.
std::string scriptSafe(const std::string& json) {
    std::string out;
    out.reserve(json.size());
    for (char c : json) {
        if (c == '<')
            out += "\\u003c";
        else
            out += c;
    }
    return out;
}

} // namespace

std::string base64(const std::string& bytes) {
    static const char* abc = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    std::string out;
    out.reserve((bytes.size() + 2) / 3 * 4);
    for (size_t i = 0; i < bytes.size(); i += 3) {
        const size_t n = std::min<size_t>(3, bytes.size() - i);
        uint32_t v = 0;
        for (size_t k = 0; k < 3; ++k)
            v = (v << 8) | (k < n ? uint8_t(bytes[i + k]) : 0u);
        for (size_t k = 0; k < 4; ++k)
            out += k <= n ? abc[(v >> (18 - 6 * k)) & 63] : '=';
    }
    return out;
}

std::string webPage(const WebPageInput& in) {
    const auto& t = in.trace;
    const auto& c = in.model.config;
    if (t.steps.empty() || t.steps.front().selfAttn.empty())
        throw std::invalid_argument("the page needs a caption decoded with its attention");
    const bool image = c.memory == MemoryKind::ImageGrid;
    if (image && in.png.empty())
        throw std::invalid_argument("the page of an image model needs the image");
    nlohmann::json d = traceToJson(t, true);
    d["image"] = in.png.empty() ? "" : "data:image/png;base64," + base64(in.png);
    if (image && t.gridSide > 0) {
        const GridMap g = gridMap(in.imageWidth, in.imageHeight, t.gridSide, c.encoder.imageSize,
                                  c.encoder.letterbox, t.seen);
        d["grid_map"] = {
            {"grid", g.grid}, {"x0", g.x0}, {"y0", g.y0}, {"cell_w", g.cellW}, {"cell_h", g.cellH}};
    } else {
        d["grid_map"] = nullptr;
        d["grid"] = nullptr;
    }
    d["positional_encoding"] = positionalEncoding(std::min<int64_t>(c.maxLength, 64), c.wordvecDim);
    const std::string file = in.model.path.substr(in.model.path.find_last_of('/') + 1);
    d["model"] = file + " · " + std::to_string(c.numLayers) + " layers × " +
                 std::to_string(c.numHeads) + " heads · W " + std::to_string(c.wordvecDim);
    d["input"] = in.name;
    d["world_notice"] = t.outOfWorld() ? "Out of world: " + t.worldWhy() : "";
    const auto steps = int64_t(t.steps.size());
    d["selection"] = {{"step", std::clamp<int64_t>(in.step, 0, steps - 1)},
                      {"layer", in.layer < 0 || in.layer >= c.numLayers ? c.numLayers - 1 : in.layer},
                      {"head", in.head < -1 || in.head >= c.numHeads ? -1 : in.head}};
    static const char* const sections[][2] = {
        {"attention", "h-self"}, {"decode", "h-decode"}, {"beam", "h-decode"}, {"pe", "h-pe"},
        {"caption", "h-cross"}, {"explain", "h-cross"}, {"circuits", "h-cross"}};
    d["focus"] = "";
    for (const auto& s : sections)
        if (in.focus == s[0])
            d["focus"] = s[1];
    std::string page = kWebPageTemplate;
    const std::string mark = "/*CAPTIONLENS_DATA*/";
    const auto at = page.find(mark);
    if (at == std::string::npos)
        throw std::logic_error("the page template has no data mark");
    page.replace(at, mark.size(), scriptSafe(d.dump()));
    return page;
}

} // namespace cl
