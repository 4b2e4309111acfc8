#pragma once
// File ▸ Open Course Data…: the course's coco_captioning folder as a searchable list of the val
// (or train) images with their ground-truth captions, the model's caption and its BLEU-1 against
// them. Choosing an image captions its feature row in the main window, so every panel shows it;
// the photo itself comes from its URL (or a placeholder naming the URL when it cannot).
#include <QDialog>
#include <QImage>
#include <QStringList>

#include <memory>
#include <vector>

class QComboBox;
class QLabel;
class QLineEdit;
class QSortFilterProxyModel;
class QStandardItemModel;
class QTableView;

namespace cl {
class CourseData;
}

namespace cl::ui {

class ImageFetcher;

struct CourseImage {
    qint64 image = 0; // the feature row
    QStringList references;
    std::vector<std::vector<qint64>> referenceIds; // for BLEU
    QString url;
};

struct CourseListing {
    QString folder, split, error;
    QStringList words; // coco2014_vocab.json's idx_to_word
    std::vector<CourseImage> images;
};

// Reads a split's listing (blocking: call it off the GUI thread); error set on failure.
CourseListing readCourseListing(const QString& folder, const QString& split);

class CourseBrowser final : public QDialog {
    Q_OBJECT
  public:
    explicit CourseBrowser(QWidget* parent = nullptr, const QString& imageCacheDir = {});
    ~CourseBrowser() override;

    using QDialog::open;
    void open(const QString& folder); // reads in the background, then lists
    void setListing(CourseListing listing);
    // The main window's caption for `image` (after imageChosen): shown with its BLEU-1.
    void showCaption(qint64 image, const QStringList& words);
    void choose(int row); // as a click on that row of the (filtered) list
    // Captions and scores the first 200 images of the listing with `checkpoint` (a feature model;
    // its own copy, in the background), filling the caption and BLEU-1 columns.
    void score(const QString& checkpoint);

    const CourseListing& listing() const { return m_listing; }
    QTableView* table() const { return m_table; }
    QLineEdit* search() const { return m_search; }
    QLabel* photo() const { return m_photo; }
    QLabel* references() const { return m_refs; }
    QLabel* caption() const { return m_caption; }
    bool loading() const { return m_loading; }
    static constexpr int kScored = 200;

  signals:
    void imageChosen(const QString& folder, const QString& split, qint64 image,
                     const QString& name);
    void listed(); // a listing is on screen (or its error)
    void failed(const QString& error); // the folder cannot be read (the list stays as it was)
    void scored(); // the first images' captions and BLEU-1 are in the list

  private:
    void showPhoto(const QString& url, const QImage& image);
    void showPhotoProblem(const QString& url, const QString& why);
    int rowOf(qint64 image) const;

    void fillScore(int row, const QString& caption, double bleu);

    CourseListing m_listing;
    QString m_scoreWith; // the checkpoint to score the listing with, once there is one
    qint64 m_current = -1;
    bool m_loading = false;
    bool m_filtering = false; // the search is filtering the list: its current row moves
    QComboBox* m_split;
    QLineEdit* m_search;
    QLabel* m_folder;
    QTableView* m_table;
    QStandardItemModel* m_model;
    QSortFilterProxyModel* m_proxy;
    QLabel* m_photo;
    QLabel* m_refs;
    QLabel* m_caption;
    ImageFetcher* m_fetcher;
};

} // namespace cl::ui
