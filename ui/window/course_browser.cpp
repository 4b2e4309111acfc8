#include "ui/window/course_browser.h"

#include "model/api/captioner.h"
#include "model/core/files.h"
#include "model/core/json_limits.h"
#include "model/data/course_data.h"
#include "model/evaluation/bleu.h"
#include "model/evaluation/course_eval.h"
#include "ui/window/background.h"
#include "ui/window/image_fetcher.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QSortFilterProxyModel>
#include <QStandardItemModel>
#include <QTableView>
#include <QVBoxLayout>

#include <map>
#include <stdexcept>

namespace cl::ui {

namespace {

constexpr int64_t kMaxVocabBytes = 16 << 20;
enum Column { kImage, kTruth, kCaption, kBleu, kColumns };

QStringList readWords(const QString& path) {
    const std::string bytes = files::readRegular(path.toStdString(), kMaxVocabBytes, "vocabulary");
    checkJsonBudget(bytes, 8, 1u << 20, path.toStdString());
    const QJsonArray words = QJsonDocument::fromJson(QByteArray::fromStdString(bytes))
                                 .object()
                                 .value("idx_to_word")
                                 .toArray();
    QStringList out;
    for (const auto& w : words) {
        if (!w.isString())
            throw std::runtime_error(
                CourseBrowser::tr("%1: idx_to_word must list words").arg(path).toStdString());
        out << w.toString();
    }
    if (out.isEmpty())
        throw std::runtime_error(
            CourseBrowser::tr("%1 has no idx_to_word list").arg(path).toStdString());
    return out;
}

QString decode(const std::vector<qint64>& ids, const QStringList& words) {
    QStringList out;
    for (auto id : ids) {
        const QString w = words.value(int(id), QStringLiteral("<%1>").arg(id));
        if (w == QLatin1String("<END>"))
            break;
        if (w != QLatin1String("<START>") && w != QLatin1String("<NULL>"))
            out << w;
    }
    return out.join(' ');
}

// The image's caption BLEU-1 against its references, the course's way.
double bleuOf(const QStringList& caption, const CourseImage& image, const QStringList& words) {
    std::vector<std::string> all;
    for (const auto& w : words)
        all.push_back(w.toStdString());
    const Vocabulary vocab(all);
    Words hyp;
    for (const auto& w : caption)
        hyp.push_back(vocab.id(w.toStdString()));
    std::vector<Words> refs;
    for (const auto& r : image.referenceIds)
        refs.push_back(scoredWords(Words(r.begin(), r.end()), vocab));
    return sentenceBleu1(scoredWords(hyp, vocab), refs);
}

} // namespace

CourseListing readCourseListing(const QString& folder, const QString& split) {
    CourseListing l;
    l.folder = folder;
    l.split = split;
    try {
        l.words = readWords(folder + "/coco2014_vocab.json");
        const CourseData data(folder.toStdString());
        const Split s = splitFromName(split.toStdString());
        const auto rows = data.allCaptions(s);
        const int64_t length = data.captionLength(s);
        std::map<int64_t, size_t> at;
        for (auto image : data.images(s)) {
            at[image] = l.images.size();
            l.images.push_back({image, {}, {}, QString::fromStdString(data.url(s, image))});
        }
        for (int64_t c = 0; c < data.captionCount(s); ++c) {
            auto& img = l.images[at[data.captionImage(s, c)]];
            img.referenceIds.emplace_back(rows.begin() + c * length,
                                          rows.begin() + (c + 1) * length);
            img.references << decode(img.referenceIds.back(), l.words);
        }
    } catch (const std::exception& e) {
        l.error = QString::fromStdString(e.what());
        l.images.clear();
    }
    return l;
}

CourseBrowser::CourseBrowser(QWidget* parent, const QString& imageCacheDir)
    : QDialog(parent), m_fetcher(new ImageFetcher(this, imageCacheDir)) {
    setWindowTitle(tr("Course data"));
    m_folder = new QLabel(this);
    m_folder->setWordWrap(true);
    m_split = new QComboBox(this);
    m_split->addItems({QStringLiteral("val"), QStringLiteral("train")});
    m_search = new QLineEdit(this);
    m_search->setPlaceholderText(tr("Search the captions…"));
    m_search->setClearButtonEnabled(true);
    m_model = new QStandardItemModel(0, kColumns, this);
    m_model->setHorizontalHeaderLabels(
        {tr("image"), tr("ground truth"), tr("model's caption"), tr("BLEU-1")});
    m_proxy = new QSortFilterProxyModel(this);
    m_proxy->setSourceModel(m_model);
    m_proxy->setFilterKeyColumn(-1);
    m_proxy->setFilterCaseSensitivity(Qt::CaseInsensitive);
    m_table = new QTableView(this);
    m_table->setModel(m_proxy);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setSectionResizeMode(kTruth, QHeaderView::Stretch);
    m_table->horizontalHeader()->setSectionResizeMode(kCaption, QHeaderView::Stretch);
    m_photo = new QLabel(this);
    m_photo->setMinimumSize(320, 240);
    m_photo->setAlignment(Qt::AlignCenter);
    m_photo->setWordWrap(true);
    m_photo->setFrameShape(QFrame::StyledPanel);
    m_refs = new QLabel(this);
    m_refs->setWordWrap(true);
    m_refs->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_caption = new QLabel(this);
    m_caption->setWordWrap(true);
    QFont big = m_caption->font();
    big.setPointSizeF(big.pointSizeF() * 1.3);
    m_caption->setFont(big);

    auto* top = new QHBoxLayout;
    top->addWidget(m_folder, 1);
    top->addWidget(new QLabel(tr("Split:"), this));
    top->addWidget(m_split);
    top->addWidget(m_search, 1);
    auto* side = new QVBoxLayout;
    side->addWidget(m_photo);
    side->addWidget(m_caption);
    side->addWidget(m_refs);
    side->addStretch(1);
    auto* body = new QHBoxLayout;
    body->addWidget(m_table, 3);
    body->addLayout(side, 2);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addLayout(body, 1);
    resize(980, 560);

    connect(m_search, &QLineEdit::textChanged, this, [this](const QString& text) {
        m_filtering = true;
        m_proxy->setFilterFixedString(text);
        m_filtering = false;
    });
    connect(m_split, &QComboBox::currentTextChanged, this, [this] {
        if (!m_listing.folder.isEmpty() && m_split->currentText() != m_listing.split)
            open(m_listing.folder);
    });
    // A click, or the arrow keys in the list; not the current row moving because a search
    // filtered it away (that captioned images nobody chose), even with the list focused.
    connect(m_table, &QTableView::clicked, this,
            [this](const QModelIndex& index) { choose(index.row()); });
    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex& index) {
                if (index.isValid() && m_table->hasFocus() && !m_filtering)
                    choose(index.row());
            });
    connect(m_fetcher, &ImageFetcher::fetched, this, &CourseBrowser::showPhoto);
    connect(m_fetcher, &ImageFetcher::failed, this, &CourseBrowser::showPhotoProblem);
}

CourseBrowser::~CourseBrowser() = default;

void CourseBrowser::open(const QString& folder) {
    m_loading = true;
    m_folder->setText(tr("Reading %1…").arg(folder));
    const QString split = m_split->currentText();
    runInBackground<CourseListing>(
        this, [folder, split] { return readCourseListing(folder, split); },
        [this](CourseListing& l) { setListing(std::move(l)); });
}

void CourseBrowser::setListing(CourseListing listing) {
    m_loading = false;
    if (!listing.error.isEmpty()) {
        m_folder->setText(tr("Cannot read the course data: %1").arg(listing.error));
        emit failed(listing.error);
        emit listed();
        return;
    }
    m_listing = std::move(listing);
    m_current = -1;
    m_folder->setText(tr("%1 · %2 images in %3")
                          .arg(m_listing.folder)
                          .arg(m_listing.images.size())
                          .arg(m_listing.split));
    m_model->removeRows(0, m_model->rowCount());
    m_photo->setText(tr("Choose an image in the list: its feature row is captioned in the main "
                        "window, its photo fetched from its URL."));
    for (const auto& img : m_listing.images) {
        auto* image = new QStandardItem;
        image->setData(qlonglong(img.image), Qt::DisplayRole);
        const QString truth =
            img.references.value(0) + (img.references.size() > 1
                                           ? tr("  (+%1 more)").arg(img.references.size() - 1)
                                           : QString());
        auto* gt = new QStandardItem(truth);
        gt->setToolTip(img.references.join('\n'));
        m_model->appendRow({image, gt, new QStandardItem, new QStandardItem});
    }
    emit listed();
    score(m_scoreWith);
}

int CourseBrowser::rowOf(qint64 image) const {
    for (int r = 0; r < m_model->rowCount(); ++r)
        if (m_model->item(r, kImage)->data(Qt::DisplayRole).toLongLong() == image)
            return r;
    return -1;
}

void CourseBrowser::choose(int row) {
    const QModelIndex source = m_proxy->mapToSource(m_proxy->index(row, kImage));
    if (!source.isValid())
        return;
    if (m_table->currentIndex().row() != row)
        m_table->selectRow(row);
    const CourseImage& img = m_listing.images[size_t(source.row())];
    if (img.image == m_current)
        return;
    m_current = img.image;
    QStringList escaped;
    for (const auto& r : img.references)
        escaped << r.toHtmlEscaped();
    m_refs->setText(tr("<b>Ground truth</b> (%1):<br>%2")
                        .arg(img.references.size())
                        .arg(escaped.join(QStringLiteral("<br>"))));
    m_caption->setText(tr("Captioning…"));
    if (m_fetcher->knownDead(img.url)) {
        m_photo->setText(tr("No photo: %1 could not be fetched before").arg(img.url));
    } else {
        m_photo->setText(tr("Fetching %1…").arg(img.url));
        m_fetcher->fetch(img.url);
    }
    emit imageChosen(m_listing.folder, m_listing.split, img.image,
                     tr("%1 image %2").arg(m_listing.split).arg(img.image));
}

void CourseBrowser::fillScore(int row, const QString& caption, double bleu) {
    m_model->item(row, kCaption)->setText(caption);
    m_model->item(row, kBleu)->setText(QString::number(bleu, 'f', 3));
}

void CourseBrowser::score(const QString& checkpoint) {
    m_scoreWith = checkpoint;
    if (m_listing.images.empty() || checkpoint.isEmpty())
        return; // scored when the listing arrives
    struct Scores {
        QString folder, split;
        std::vector<CourseImageScore> images;
    };
    const QString folder = m_listing.folder, split = m_listing.split;
    runInBackground<Scores>(
        this,
        [checkpoint, folder, split] {
            Scores s{folder, split, {}};
            try {
                auto model = Captioner::open(checkpoint.toStdString());
                if (model->info().config.memory != MemoryKind::Features)
                    return s;
                const CourseData data(folder.toStdString());
                CourseEvalOptions o;
                o.split = splitFromName(split.toStdString());
                o.limit = kScored;
                s.images = evaluateCourse(*model, data, o).perImage;
            } catch (const std::exception&) {
                s.images.clear(); // the list stays as it is; choosing an image says why
            }
            return s;
        },
        [this](Scores& s) {
            if (s.folder != m_listing.folder || s.split != m_listing.split)
                return;
            for (const auto& img : s.images) {
                const int row = rowOf(img.image);
                if (row >= 0)
                    fillScore(row, QString::fromStdString(img.caption), img.bleu1);
            }
            emit scored();
        });
}

void CourseBrowser::showCaption(qint64 image, const QStringList& words) {
    const int row = rowOf(image);
    if (row < 0)
        return;
    const double bleu = bleuOf(words, m_listing.images[size_t(row)], m_listing.words);
    fillScore(row, words.join(' '), bleu);
    if (image == m_current)
        m_caption->setText(tr("<b>Model:</b> %1<br><b>BLEU-1</b> against all %2 references: %3")
                               .arg(words.join(' ').toHtmlEscaped())
                               .arg(m_listing.images[size_t(row)].references.size())
                               .arg(bleu, 0, 'f', 3));
}

void CourseBrowser::showPhoto(const QString& url, const QImage& image) {
    const int row = rowOf(m_current);
    if (row < 0 || m_listing.images[size_t(row)].url != url)
        return; // another image was chosen since
    m_photo->setPixmap(QPixmap::fromImage(image).scaled(m_photo->size(), Qt::KeepAspectRatio,
                                                        Qt::SmoothTransformation));
}

void CourseBrowser::showPhotoProblem(const QString& url, const QString& why) {
    const int row = rowOf(m_current);
    if (row < 0 || m_listing.images[size_t(row)].url != url)
        return;
    m_photo->setText(tr("No photo: %1\n%2").arg(why, url));
}

} // namespace cl::ui
