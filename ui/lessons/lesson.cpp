#include "ui/lessons/lesson.h"

#include "model/core/files.h"
#include "model/core/json_limits.h"
#include "model/data/course_data.h"
#include "model/data/npy.h"
#include "model/shapes/counterfactual.h"
#include "ui/imaging/image_loader.h"
#include "ui/imaging/image_writer.h"

#include <QBuffer>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <utility>

namespace cl::ui {

namespace {

constexpr qint64 kMaxLessonBytes = 32 << 20; // an embedded 1024 px PNG is a few MB at most
constexpr int kMaxImageSide = 1024;
constexpr int kMaxCompared = 16; // checkpoints one lesson may compare
constexpr int kMaxIndex = 4096;  // words, heads, snapshots: far beyond any real model
const char* kFormat = "captionlens-lesson";

[[noreturn]] void fail(const QString& why) {
    throw std::runtime_error(why.toStdString());
}

QJsonArray rgbJson(const std::array<uint8_t, 3>& c) {
    return {c[0], c[1], c[2]};
}

std::array<uint8_t, 3> rgbFrom(const QJsonValue& v) {
    const QJsonArray a = v.toArray();
    if (a.size() != 3)
        fail(QObject::tr("a scene colour must be three numbers 0..255"));
    std::array<uint8_t, 3> c{};
    for (int i = 0; i < 3; ++i) {
        const double x = a[i].toDouble(-1);
        if (!(x >= 0 && x <= 255))
            fail(QObject::tr("a scene colour must be three numbers 0..255"));
        c[size_t(i)] = uint8_t(x);
    }
    return c;
}

template <typename E>
E enumFrom(const QJsonValue& v, int count, std::string (*name)(E), const char* what) {
    for (int i = 0; i < count; ++i)
        if (v.toString() == QString::fromStdString(name(E(i))))
            return E(i);
    fail(QObject::tr("unknown %1 '%2' in the scene").arg(what, v.toString()));
}

QJsonObject sceneJson(const SceneSpec& s) {
    QJsonArray objects;
    for (const auto& o : s.objects)
        objects.append(QJsonObject{{"shape", QString::fromStdString(shapeName(o.shape))},
                                   {"colour", QString::fromStdString(colourName(o.colour))},
                                   {"size", QString::fromStdString(sizeName(o.size))},
                                   {"cx", o.cx},
                                   {"cy", o.cy},
                                   {"radius", o.radius},
                                   {"rgb", rgbJson(o.rgb)}});
    const auto& b = s.background;
    return {{"side", s.side},
            {"background", QJsonObject{{"from", rgbJson(b.from)},
                                       {"to", rgbJson(b.to)},
                                       {"direction", b.direction},
                                       {"noise", b.noise},
                                       {"noise_seed", QString::number(b.noiseSeed)}}},
            {"objects", objects}};
}

// An integer field in lo..hi: absent gives `fallback`; another type or an out-of-range value is
// an error naming the field (a string where a number belongs used to become 0 silently).
int index(const QJsonObject& o, const char* key, int fallback, int lo, int hi, const char* name) {
    const QJsonValue v = o.value(QLatin1String(key));
    if (v.isUndefined() || v.isNull())
        return fallback;
    const double x = v.toDouble(NAN);
    if (!v.isDouble() || x != std::floor(x) || x < lo || x > hi)
        fail(QObject::tr("lesson field '%1' must be a whole number in %2..%3")
                 .arg(name)
                 .arg(lo)
                 .arg(hi));
    return int(x);
}

// A field of one exact JSON type: absent or null gives `fallback`; any other type is an error
// naming the field.
QJsonValue typed(const QJsonObject& o, const char* key, QJsonValue::Type type, const char* name) {
    const QJsonValue v = o.value(QLatin1String(key));
    if (v.isUndefined() || v.isNull() || v.type() == type)
        return v;
    static const char* kinds[] = {
        QT_TRANSLATE_NOOP("QObject", "null"),     QT_TRANSLATE_NOOP("QObject", "true or false"),
        QT_TRANSLATE_NOOP("QObject", "a number"), QT_TRANSLATE_NOOP("QObject", "text"),
        QT_TRANSLATE_NOOP("QObject", "a list"),   QT_TRANSLATE_NOOP("QObject", "an object")};
    const int k = type == QJsonValue::Bool     ? 1
                  : type == QJsonValue::Double ? 2
                  : type == QJsonValue::String ? 3
                  : type == QJsonValue::Array  ? 4
                                               : 5;
    fail(QObject::tr("lesson field '%1' must be %2").arg(name, QObject::tr(kinds[k])));
}

QString text(const QJsonObject& o, const char* key, const char* name) {
    return typed(o, key, QJsonValue::String, name).toString();
}

QJsonObject object(const QJsonObject& o, const char* key, const char* name) {
    return typed(o, key, QJsonValue::Object, name).toObject();
}

QJsonArray array(const QJsonObject& o, const char* key, const char* name) {
    return typed(o, key, QJsonValue::Array, name).toArray();
}

double number(const QJsonObject& o, const char* key, double lo, double hi) {
    const double x = o.value(QLatin1String(key)).toDouble(NAN);
    if (!(x >= lo && x <= hi))
        fail(QObject::tr("scene field '%1' must be a number in %2..%3").arg(key).arg(lo).arg(hi));
    return x;
}

SceneSpec sceneFrom(const QJsonObject& j) {
    SceneSpec s;
    s.side = int(number(j, "side", 16, 1024));
    const QJsonObject b = j.value("background").toObject();
    s.background.from = rgbFrom(b.value("from"));
    s.background.to = rgbFrom(b.value("to"));
    s.background.direction = int(number(b, "direction", 0, 7));
    s.background.noise = int(number(b, "noise", 0, 64));
    s.background.noiseSeed = b.value("noise_seed").toString().toULongLong();
    const QJsonArray objects = j.value("objects").toArray();
    if (objects.size() > 8)
        fail(
            QObject::tr("a lesson scene holds at most 8 objects, this one %1").arg(objects.size()));
    for (const auto& v : objects) {
        const QJsonObject o = v.toObject();
        SceneObject x;
        x.shape = enumFrom<Shape>(o.value("shape"), kShapeCount, shapeName, "shape");
        x.colour = enumFrom<Colour>(o.value("colour"), kColourCount, colourName, "colour");
        x.size = enumFrom<Size>(o.value("size"), 2, sizeName, "size");
        x.cx = number(o, "cx", 0, s.side);
        x.cy = number(o, "cy", 0, s.side);
        x.radius = number(o, "radius", 0.5, s.side / 2.0);
        x.rgb = rgbFrom(o.value("rgb"));
        s.objects.push_back(x);
    }
    return s;
}

// Where a lesson's paths are relative to: its own folder, and the bundled resources.
struct Places {
    QDir dir;
    QString resources;
};

const QString kBundled = QStringLiteral("@resources/");

QString relativeTo(const Places& at, const QString& path) {
    if (path.isEmpty())
        return {};
    const QString absolute = QFileInfo(path).absoluteFilePath();
    if (!at.resources.isEmpty()) {
        // Through links too: the bundled folder is often a link (the build tree's, an install's)
        // and a file dialog may hand over the real path behind it, or the other way round.
        const QString real = QFileInfo(path).canonicalFilePath();
        const QString realResources = QDir(at.resources).canonicalPath();
        for (const auto& [from, file] :
             {std::pair{at.resources, absolute}, std::pair{realResources, real}}) {
            if (from.isEmpty() || file.isEmpty())
                continue;
            const QString bundled = QDir(from).relativeFilePath(file);
            if (!bundled.startsWith(QLatin1String("..")) && !QDir::isAbsolutePath(bundled))
                return kBundled + bundled;
        }
    }
    const QString rel = at.dir.relativeFilePath(absolute);
    return rel.startsWith(QLatin1String("..")) ? absolute : rel;
}

QString resolve(const Places& at, const QString& path) {
    if (path.startsWith(kBundled)) {
        if (at.resources.isEmpty())
            fail(QObject::tr("the lesson names the bundled file %1, but this CaptionLens has no "
                             "bundled files (share/captionlens) next to it")
                     .arg(path.mid(kBundled.size())));
        return QDir::cleanPath(QDir(at.resources).absoluteFilePath(path.mid(kBundled.size())));
    }
    return path.isEmpty() ? QString() : QDir::cleanPath(at.dir.absoluteFilePath(path));
}

QJsonObject inputJson(const Lesson& l, const Places& dir) {
    switch (l.input) {
    case Lesson::Input::Scene:
        return {{"kind", "scene"}, {"scene", sceneJson(l.scene)}};
    case Lesson::Input::Image: {
        QImage img = l.image;
        if (std::max(img.width(), img.height()) > kMaxImageSide)
            img = img.scaled(kMaxImageSide, kMaxImageSide, Qt::KeepAspectRatio,
                             Qt::SmoothTransformation);
        QByteArray png;
        QBuffer buffer(&png);
        buffer.open(QIODevice::WriteOnly);
        img.save(&buffer, "PNG");
        return {{"kind", "image"},
                {"name", l.imageName},
                {"png_base64", QString::fromLatin1(png.toBase64())}};
    }
    case Lesson::Input::Features:
        return {{"kind", "features"},
                {"path", relativeTo(dir, l.featuresPath)},
                {"row", l.featuresRow}};
    case Lesson::Input::None:
        break;
    }
    return {{"kind", "none"}};
}

void readInput(Lesson& l, const QJsonObject& j, const Places& dir) {
    const QString kind = text(j, "kind", "input.kind");
    if (kind == "scene") {
        l.input = Lesson::Input::Scene;
        l.scene = sceneFrom(object(j, "scene", "input.scene"));
    } else if (kind == "image") {
        l.input = Lesson::Input::Image;
        l.imageName = text(j, "name", "input.name");
        const QByteArray png =
            QByteArray::fromBase64(text(j, "png_base64", "input.png_base64").toLatin1());
        const LoadedImage loaded = loadImageData(png); // the same budgets as any image file
        if (!loaded.ok())
            fail(QObject::tr("the lesson's embedded image is not readable: %1").arg(loaded.error));
        l.image = loaded.image;
    } else if (kind == "features") {
        l.input = Lesson::Input::Features;
        l.featuresPath = resolve(dir, text(j, "path", "input.path"));
        l.featuresRow = index(j, "row", 0, 0, 1 << 24, "input.row");
    } else if (kind != "none" && !kind.isEmpty()) {
        fail(QObject::tr("unknown input kind '%1'").arg(kind));
    }
}

} // namespace

QString writeLesson(const Lesson& l, const QString& path, const QString& resources) {
    const Places dir{QFileInfo(path).absoluteDir(), resources};
    QJsonArray compare, heads;
    for (const QString& p : l.compare)
        compare.append(relativeTo(dir, p));
    for (uint8_t h : l.headsOff)
        heads.append(int(h));
    const QJsonObject root{
        {"format", kFormat},
        {"version", 1},
        {"input", inputJson(l, dir)},
        {"checkpoint", relativeTo(dir, l.checkpoint)},
        {"compare", QJsonObject{{"paths", compare},
                                {"a", l.compareA},
                                {"b", l.compareB},
                                {"head_a", l.compareHeadA},
                                {"head_b", l.compareHeadB},
                                {"step", l.compareStep},
                                {"attention", l.compareSelf ? "self" : "cross"}}},
        {"timeline", QJsonObject{{"folder", relativeTo(dir, l.timelineFolder)},
                                 {"position", l.timelinePosition}}},
        {"panel", l.panel},
        {"circuits", QJsonObject{{"object", l.circuitsObject},
                                 {"change", l.circuitsChange},
                                 {"word", l.circuitsWord},
                                 {"noising", l.circuitsNoising}}},
        {"selection", QJsonObject{{"step", l.step},
                                  {"layer", l.layer},
                                  {"head", l.head},
                                  {"opacity", l.opacity},
                                  {"auto_contrast", l.autoContrast}}},
        {"heads_off", heads}};
    return writeBytes(QJsonDocument(root).toJson(), path);
}

std::vector<float> readFeatureRow(const QString& path, int row) {
    const std::string name = path.toStdString();
    const QString suffix = QFileInfo(path).suffix().toLower();
    const bool hdf5 = suffix == QLatin1String("h5") || suffix == QLatin1String("hdf5");
    NpyMatrix m;
    if (hdf5) // the course's feature files: only this row is read
        m.rows = h5FeatureRows(name, &m.cols);
    else
        m = readNpy(name);
    if (row < 0 || row >= m.rows)
        fail(QObject::tr("%1 has %2 rows; row %3 does not exist").arg(path).arg(m.rows).arg(row));
    if (!hdf5)
        return m.finiteRows(row, 1, name);
    NpyMatrix one{1, m.cols, h5Features(name, row, 1)};
    try {
        return one.finiteRows(0, 1, name);
    } catch (const std::exception&) {
        fail(QObject::tr("row %1 of %2 holds NaN, an infinity or a magnitude of 1e6 or more; "
                         "features must be finite")
                 .arg(row)
                 .arg(path));
    }
}

Lesson readLesson(const QString& path, const QString& resources) {
    // Only a regular file within budget (a FIFO or /dev/zero used to hang the reader).
    const std::string bytes = files::readRegular(path.toStdString(), kMaxLessonBytes, "lesson");
    return parseLesson(QByteArray::fromRawData(bytes.data(), int(bytes.size())), path,
                       QFileInfo(path).absolutePath(), resources);
}

Lesson parseLesson(const QByteArray& bytes, const QString& path, const QString& folder,
                   const QString& resources) {
    if (bytes.size() > kMaxLessonBytes)
        fail(QObject::tr("%1 is over %2 MiB; a lesson is at most that")
                 .arg(path)
                 .arg(kMaxLessonBytes >> 20));
    try { // a lesson is 4 levels deep; an embedded image is one long string
        checkJsonBudget(bytes.toStdString(), 16, 1u << 16, path.toStdString());
    } catch (const std::exception& e) {
        fail(QString::fromStdString(e.what()));
    }
    QJsonParseError err;
    const QJsonDocument doc = QJsonDocument::fromJson(bytes, &err);
    if (doc.isNull())
        fail(QObject::tr("%1 is not a lesson: %2").arg(path, err.errorString()));
    const QJsonObject root = doc.object();
    if (root.value("format").toString() != QLatin1String(kFormat))
        fail(QObject::tr("%1 is not a CaptionLens lesson (no format tag)").arg(path));
    if (root.value("version").toInt() != 1)
        fail(QObject::tr("%1 is a lesson of version %2; this CaptionLens reads version 1")
                 .arg(path)
                 .arg(root.value("version").toInt()));
    const Places dir{QDir(folder), resources};
    Lesson l;
    readInput(l, object(root, "input", "input"), dir);
    l.checkpoint = resolve(dir, text(root, "checkpoint", "checkpoint"));
    const QJsonObject cmp = object(root, "compare", "compare");
    const QJsonArray paths = array(cmp, "paths", "compare.paths");
    if (paths.size() > kMaxCompared)
        fail(QObject::tr("the lesson compares %1 checkpoints; at most %2")
                 .arg(paths.size())
                 .arg(kMaxCompared));
    for (const auto& v : paths) {
        if (!v.isString())
            fail(QObject::tr("lesson field 'compare.paths' must be a list of file names"));
        if (!l.compare.contains(resolve(dir, v.toString()))) // once each
            l.compare << resolve(dir, v.toString());
    }
    // Indices are checked whole before anything changes: a negative index used to reach a
    // std::vector unchecked in the Compare panel.
    l.compareA = index(cmp, "a", 0, 0, kMaxCompared - 1, "compare.a");
    l.compareB = index(cmp, "b", 1, 0, kMaxCompared - 1, "compare.b");
    l.compareHeadA = index(cmp, "head_a", 0, 0, kMaxIndex, "compare.head_a");
    l.compareHeadB = index(cmp, "head_b", 0, 0, kMaxIndex, "compare.head_b");
    l.compareStep = index(cmp, "step", 0, 0, kMaxIndex, "compare.step");
    l.compareSelf = text(cmp, "attention", "compare.attention") == "self";
    const QJsonObject tl = object(root, "timeline", "timeline");
    l.timelineFolder = resolve(dir, text(tl, "folder", "timeline.folder"));
    l.timelinePosition = index(tl, "position", 0, 0, kMaxIndex, "timeline.position");
    l.panel = text(root, "panel", "panel");
    if (l.panel.isEmpty())
        l.panel = QStringLiteral("caption");
    const QJsonObject cir = object(root, "circuits", "circuits"); // absent before issue 39
    l.circuitsObject = index(cir, "object", -1, -1, kMaxIndex, "circuits.object");
    l.circuitsChange = index(cir, "change", -1, -1, kChangeCount - 1, "circuits.change");
    l.circuitsWord = index(cir, "word", -1, -1, kMaxIndex, "circuits.word");
    l.circuitsNoising = typed(cir, "noising", QJsonValue::Bool, "circuits.noising").toBool(false);
    const QJsonObject sel = object(root, "selection", "selection");
    l.step = index(sel, "step", 0, 0, kMaxIndex, "selection.step");
    l.layer = index(sel, "layer", 0, 0, kMaxIndex, "selection.layer");
    l.head = index(sel, "head", -1, -1, kMaxIndex, "selection.head");
    l.opacity = typed(sel, "opacity", QJsonValue::Double, "selection.opacity").toDouble(0.75);
    if (!(l.opacity >= 0 && l.opacity <= 1))
        fail(QObject::tr("lesson field 'selection.opacity' must be a number in 0..1"));
    l.autoContrast =
        typed(sel, "auto_contrast", QJsonValue::Bool, "selection.auto_contrast").toBool(true);
    const QJsonArray heads = array(root, "heads_off", "heads_off");
    if (heads.size() > kMaxIndex)
        fail(QObject::tr("the lesson switches %1 heads; at most %2")
                 .arg(heads.size())
                 .arg(kMaxIndex));
    for (const auto& v : heads) {
        if (!v.isBool() && !(v.isDouble() && (v.toDouble() == 0 || v.toDouble() == 1)))
            fail(QObject::tr("lesson field 'heads_off' must be a list of 0/1 or true/false"));
        l.headsOff.push_back(v.toBool(v.toDouble() == 1) ? 1 : 0);
    }
    if (l.input == Lesson::Input::Features)
        l.features = readFeatureRow(l.featuresPath, l.featuresRow);
    return l;
}

} // namespace cl::ui
