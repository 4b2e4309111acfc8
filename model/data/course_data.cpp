#include "model/data/course_data.h"

#include "model/core/files.h"
#include "model/data/npy.h"

#include <algorithm>
#include <map>
#include <stdexcept>

#ifdef CAPTIONLENS_HAVE_HDF5
#include "model/data/h5_file.h"
#endif

namespace cl {

namespace {

[[noreturn]] void fail(const std::string& message) {
    throw std::runtime_error(message);
}

// The budgets of a course folder (issue 41: small files that cost gigabytes). The course's
// train2014_urls.txt is 5 MB of 82,783 lines; an image has 5 to 7 captions.
constexpr int64_t kMaxUrlFileBytes = int64_t(32) << 20;
constexpr size_t kMaxUrls = size_t(1) << 20;
constexpr size_t kMaxCaptionsPerImage = 100;
constexpr int64_t kMaxCaptionLength = 64;
constexpr int64_t kMaxFeatureWidth = 1 << 16;

} // namespace

Split splitFromName(const std::string& name) {
    if (name == "train")
        return Split::Train;
    if (name == "val")
        return Split::Val;
    fail("unknown split '" + name + "' (expected train or val)");
}

std::string splitName(Split split) {
    return split == Split::Train ? "train" : "val";
}

#ifdef CAPTIONLENS_HAVE_HDF5

struct CourseData::Impl {
    struct SplitData {
        std::vector<int64_t> imageOfCaption; // *_image_idxs
        std::vector<int64_t> images;         // unique, ascending
        std::multimap<int64_t, int64_t> captionsOfImage;
        int64_t length = 0; // caption row width
        std::vector<std::string> urls;
        bool urlsRead = false;
    };
    std::string folder;
    std::unique_ptr<h5::File> captions;
    SplitData splits[2];
    std::map<std::string, std::unique_ptr<h5::File>> featureFiles;

    SplitData& of(Split s) { return splits[s == Split::Train ? 0 : 1]; }
    void readSplit(Split s);
    const h5::File& featureFile(Split s, int64_t width);
};

void CourseData::Impl::readSplit(Split s) {
    const std::string name = splitName(s);
    h5::Dataset caps(*captions, name + "_captions");
    h5::Dataset idxs(*captions, name + "_image_idxs");
    caps.require(2, h5::Dataset::Kind::Integer);
    idxs.require(1, h5::Dataset::Kind::Integer);
    if (caps.rows() != idxs.rows())
        fail(captions->path() + ": " + name + "_captions has " + std::to_string(caps.rows()) +
             " rows but " + name + "_image_idxs " + std::to_string(idxs.rows()));
    if (caps.cols() < 2 || caps.cols() > kMaxCaptionLength)
        fail(captions->path() + ": " + name + "_captions rows of " + std::to_string(caps.cols()) +
             " words are not captions");
    SplitData& d = of(s);
    d.length = caps.cols();
    d.imageOfCaption = idxs.readInts(0, idxs.rows());
    for (size_t c = 0; c < d.imageOfCaption.size(); ++c) {
        const int64_t image = d.imageOfCaption[c];
        if (image < 0)
            fail(captions->path() + ": " + name + "_image_idxs holds a negative row");
        d.captionsOfImage.emplace(image, static_cast<int64_t>(c));
    }
    for (const auto& [image, c] : d.captionsOfImage)
        if (d.images.empty() || d.images.back() != image) {
            d.images.push_back(image);
            if (d.captionsOfImage.count(image) > kMaxCaptionsPerImage)
                fail(captions->path() + ": image " + std::to_string(image) + " has " +
                     std::to_string(d.captionsOfImage.count(image)) + " " + name +
                     " captions, over the " + std::to_string(kMaxCaptionsPerImage) +
                     " this reader accepts (the course's have 5 to 7)");
        }
}

const h5::File& CourseData::Impl::featureFile(Split s, int64_t width) {
    std::string found;
    for (const char* kind : {"_vgg16_fc7_pca.h5", "_vgg16_fc7.h5"}) {
        const std::string path = folder + "/" + splitName(s) + "2014" + kind;
        if (!files::notRegularReason(path).empty())
            continue;
        auto& file = featureFiles[path];
        if (!file)
            file = std::make_unique<h5::File>(path);
        h5::Dataset f(*file, "features");
        f.require(2, h5::Dataset::Kind::Float);
        if (f.cols() == width)
            return *file;
        found += (found.empty() ? "" : ", ") + path + " (width " + std::to_string(f.cols()) + ")";
    }
    fail("no " + splitName(s) + " features of width " + std::to_string(width) + " in " + folder +
         (found.empty() ? " (no feature files)" : " (found " + found + ")"));
}

CourseData::CourseData(const std::string& folder) : d(std::make_unique<Impl>()) {
    d->folder = folder;
    const std::string why = files::notRegularReason(folder + "/coco2014_captions.h5");
    if (why == "no such file")
        fail(folder + " is not a course data folder: it has no coco2014_captions.h5");
    d->captions = std::make_unique<h5::File>(folder + "/coco2014_captions.h5");
    d->readSplit(Split::Train);
    d->readSplit(Split::Val);
}

int64_t CourseData::captionCount(Split s) const {
    return static_cast<int64_t>(d->of(s).imageOfCaption.size());
}

int64_t CourseData::captionImage(Split s, int64_t caption) const {
    const auto& idx = d->of(s).imageOfCaption;
    if (caption < 0 || caption >= static_cast<int64_t>(idx.size()))
        fail("caption " + std::to_string(caption) + " is outside the " +
             std::to_string(idx.size()) + " " + splitName(s) + " captions");
    return idx[static_cast<size_t>(caption)];
}

const std::vector<int64_t>& CourseData::images(Split s) const {
    return d->of(s).images;
}

std::vector<std::vector<int64_t>> CourseData::references(Split s, int64_t image) const {
    const auto& sd = d->of(s);
    auto [begin, end] = sd.captionsOfImage.equal_range(image);
    if (begin == end)
        fail("image " + std::to_string(image) + " has no " + splitName(s) + " captions");
    h5::Dataset caps(*d->captions, splitName(s) + "_captions");
    std::vector<std::vector<int64_t>> out;
    for (auto it = begin; it != end; ++it)
        out.push_back(caps.readInts(it->second, 1));
    return out;
}

std::vector<int64_t> CourseData::allCaptions(Split s) const {
    h5::Dataset caps(*d->captions, splitName(s) + "_captions");
    return caps.readInts(0, caps.rows());
}

int64_t CourseData::captionLength(Split s) const {
    return d->of(s).length;
}

std::vector<float> CourseData::features(Split s, int64_t image, int64_t width) const {
    if (width <= 0 || width > kMaxFeatureWidth)
        fail("feature width " + std::to_string(width) + " is out of range");
    h5::Dataset f(d->featureFile(s, width), "features");
    if (image < 0 || image >= f.rows())
        fail("image " + std::to_string(image) + " is outside the " + std::to_string(f.rows()) +
             " " + splitName(s) + " feature rows");
    auto row = f.readFloats(image, 1);
    requireFiniteRows(row, image, f.cols(), "the " + splitName(s) + " features");
    return row;
}

std::string CourseData::url(Split s, int64_t image) const {
    auto& sd = d->of(s);
    if (!sd.urlsRead) {
        sd.urlsRead = true;
        const std::string path = d->folder + "/" + splitName(s) + "2014_urls.txt";
        if (files::notRegularReason(path).empty()) {
            const std::string text = files::readRegular(path, kMaxUrlFileBytes, "URL list");
            for (size_t at = 0; at < text.size() && sd.urls.size() < kMaxUrls;) {
                const size_t end = std::min(text.find('\n', at), text.size());
                sd.urls.push_back(text.substr(at, end - at));
                at = end + 1;
            }
        }
    }
    if (image < 0 || image >= static_cast<int64_t>(sd.urls.size()))
        return "";
    return sd.urls[static_cast<size_t>(image)];
}

int64_t h5FeatureRows(const std::string& path, int64_t* width) {
    h5::File file(path);
    h5::Dataset f(file, "features");
    f.require(2, h5::Dataset::Kind::Float);
    if (width)
        *width = f.cols();
    return f.rows();
}

std::vector<float> h5Features(const std::string& path, int64_t first, int64_t count) {
    h5::File file(path);
    h5::Dataset f(file, "features");
    f.require(2, h5::Dataset::Kind::Float);
    return f.readFloats(first, count);
}

int64_t h5OpenObjects() {
    return h5::openObjects();
}

#else

struct CourseData::Impl {
    std::string folder;
};

namespace {
[[noreturn]] void noHdf5() {
    fail("this CaptionLens was built without HDF5 and cannot read the course's .h5 files");
}
} // namespace

CourseData::CourseData(const std::string&) {
    noHdf5();
}
int64_t CourseData::captionCount(Split) const {
    noHdf5();
}
int64_t CourseData::captionImage(Split, int64_t) const {
    noHdf5();
}
const std::vector<int64_t>& CourseData::images(Split) const {
    noHdf5();
}
std::vector<std::vector<int64_t>> CourseData::references(Split, int64_t) const {
    noHdf5();
}
std::vector<int64_t> CourseData::allCaptions(Split) const {
    noHdf5();
}
int64_t CourseData::captionLength(Split) const {
    noHdf5();
}
std::vector<float> CourseData::features(Split, int64_t, int64_t) const {
    noHdf5();
}
std::string CourseData::url(Split, int64_t) const {
    noHdf5();
}
int64_t h5FeatureRows(const std::string&, int64_t*) {
    noHdf5();
}
std::vector<float> h5Features(const std::string&, int64_t, int64_t) {
    noHdf5();
}
int64_t h5OpenObjects() {
    return 0;
}

#endif

CourseData::~CourseData() = default;

const std::string& CourseData::folder() const {
    static const std::string none;
    return d ? d->folder : none;
}

} // namespace cl
