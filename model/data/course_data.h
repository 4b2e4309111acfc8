#pragma once
// The CS231n course's data folder as its download script leaves it (coco_captioning/):
// coco2014_captions.h5 (train/val captions as word ids and the image row of each caption),
// {train,val}2014_vgg16_fc7_pca.h5 (512-d) and {train,val}2014_vgg16_fc7.h5 (4096-d) features,
// {train,val}2014_urls.txt. Everything is read lazily, a row at a time; every bad file or
// dataset is one line naming it.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace cl {

enum class Split { Train, Val };
Split splitFromName(const std::string& name); // "train" or "val"; throws otherwise
std::string splitName(Split split);

class CourseData {
  public:
    // Opens FOLDER/coco2014_captions.h5 and checks both splits' datasets.
    explicit CourseData(const std::string& folder);
    ~CourseData();
    CourseData(const CourseData&) = delete;
    CourseData& operator=(const CourseData&) = delete;

    const std::string& folder() const;
    int64_t captionCount(Split split) const;
    int64_t captionImage(Split split, int64_t caption) const; // the image row of a caption
    // Image rows that have at least one caption, ascending ("the first N images of the split").
    const std::vector<int64_t>& images(Split split) const;
    // Every caption row of the split at once (rows x captionLength() word ids): one read, for
    // listing a whole split.
    std::vector<int64_t> allCaptions(Split split) const;
    int64_t captionLength(Split split) const;
    // Every ground-truth caption of an image, as word ids (with <START>, <END>, <NULL>).
    std::vector<std::vector<int64_t>> references(Split split, int64_t image) const;
    // The image's feature row from the file of width `width` (PCA 512 or full 4096; a small
    // course-shaped folder may hold other widths). Throws naming the files found.
    std::vector<float> features(Split split, int64_t image, int64_t width) const;
    // Its URL from {split}2014_urls.txt, or "" when the file or the line is missing.
    std::string url(Split split, int64_t image) const;

  private:
    struct Impl;
    std::unique_ptr<Impl> d;
};

// Rows of a `features` dataset in any HDF5 file (caption --features FILE.h5 --row I).
int64_t h5FeatureRows(const std::string& path, int64_t* width);
std::vector<float> h5Features(const std::string& path, int64_t first, int64_t count);
// HDF5 files, datasets and other handles open in this process (0 when every reader closed what it
// opened, also on errors; tests check it since LeakSanitizer cannot tell ours from HDF5's own).
int64_t h5OpenObjects();

} // namespace cl
