#include "ui/window/language.h"

#include <QCoreApplication>
#include <QFile>
#include <QHash>
#include <QLibraryInfo>
#include <QLocale>
#include <QRegularExpression>
#include <QTranslator>
#include <QXmlStreamReader>

#include <algorithm>
#include <optional>

namespace cl::ui {

namespace {

constexpr qint64 kMaxCatalogueBytes = 8 << 20;

struct Installed {
    QString code = QStringLiteral("en");
    QTranslator* ours = nullptr;
    QTranslator* qts = nullptr;
};
Installed& installed() {
    static Installed s;
    return s;
}

// The compiled-in catalogue, read once. A message's translation is its <translation> text, or
// its first <numerusform> (Korean has one plural form).
std::vector<CatalogueMessage> readCatalogue() {
    std::vector<CatalogueMessage> out;
    QFile f(QStringLiteral(":/i18n/captionlens_ko.ts"));
    if (f.size() > kMaxCatalogueBytes || !f.open(QIODevice::ReadOnly))
        return out;
    QXmlStreamReader xml(&f);
    QString context;
    CatalogueMessage m;
    while (!xml.atEnd()) {
        if (xml.readNext() != QXmlStreamReader::StartElement)
            continue;
        const auto name = xml.name();
        if (name == QLatin1String("name"))
            context = xml.readElementText();
        else if (name == QLatin1String("message"))
            m = {context, {}, {}};
        else if (name == QLatin1String("source"))
            m.source = xml.readElementText();
        else if (name == QLatin1String("translation") || name == QLatin1String("numerusform")) {
            const QString t = xml.readElementText(QXmlStreamReader::IncludeChildElements);
            if (m.korean.isEmpty() && !t.isEmpty()) {
                m.korean = t;
                out.push_back(m);
            }
        }
    }
    return out;
}

// A message with placeholders as a pattern: its literal parts escaped, each placeholder a lazy
// named group (a repeated one must repeat its text), anchored at both ends.
struct Pattern {
    QString context, prefix, suffix, target;
    QRegularExpression re;
    int literal = 0; // letters outside the placeholders: the more, the surer the match
};

const QRegularExpression& placeholder() {
    static const QRegularExpression re(QStringLiteral("%(L?[1-9]|n)"));
    return re;
}

QString groupName(const QRegularExpressionMatch& m) {
    return QStringLiteral("p") + m.captured(1).remove(QLatin1Char('L'));
}

std::optional<Pattern> makePattern(const QString& from, const QString& to) {
    Pattern p;
    QString re = QStringLiteral("^");
    QStringList seen;
    qsizetype pos = 0;
    for (auto it = placeholder().globalMatch(from); it.hasNext();) {
        const auto m = it.next();
        const QString lit = from.mid(pos, m.capturedStart() - pos);
        if (pos == 0)
            p.prefix = lit;
        re += QRegularExpression::escape(lit);
        p.literal +=
            int(std::count_if(lit.begin(), lit.end(), [](QChar c) { return c.isLetter(); }));
        const QString name = groupName(m);
        re += seen.contains(name) ? QStringLiteral("\\k<%1>").arg(name)
                                  : QStringLiteral("(?<%1>.*?)").arg(name);
        seen << name;
        pos = m.capturedEnd();
    }
    p.suffix = from.mid(pos);
    re += QRegularExpression::escape(p.suffix) + QStringLiteral("$");
    p.literal +=
        int(std::count_if(p.suffix.begin(), p.suffix.end(), [](QChar c) { return c.isLetter(); }));
    if (p.literal < 2) // "%1 %2": would match anything
        return std::nullopt;
    p.re = QRegularExpression(re, QRegularExpression::DotMatchesEverythingOption);
    p.target = to;
    return p;
}

struct Direction {
    QMultiHash<QString, QPair<QString, QString>> exact; // text -> (context, translation)
    std::vector<Pattern> patterns;                      // surest first
};

Direction makeDirection(bool toKorean) {
    Direction d;
    for (const auto& m : koreanCatalogue()) {
        const QString& from = toKorean ? m.source : m.korean;
        const QString& to = toKorean ? m.korean : m.source;
        if (from == to)
            continue;
        if (!placeholder().match(from).hasMatch()) {
            d.exact.insert(from, {m.context, to});
        } else if (auto p = makePattern(from, to)) {
            p->context = m.context;
            d.patterns.push_back(std::move(*p));
        }
    }
    std::stable_sort(d.patterns.begin(), d.patterns.end(),
                     [](const Pattern& a, const Pattern& b) { return a.literal > b.literal; });
    return d;
}

QString translated(const Direction& d, const QString& text, const QStringList& contexts, int depth);

// Of several messages with this text (one Korean for "Random Scene" and "Random scene"), the one
// of the nearest class around the widget, else any.
template <typename Item, typename Context>
const Item* nearest(const QList<const Item*>& found, const QStringList& contexts, Context context) {
    for (const QString& c : contexts)
        for (const Item* i : found)
            if (context(*i) == c)
                return i;
    return found.isEmpty() ? nullptr : found.front();
}

// The pattern's target with each placeholder filled by what it matched, itself translated (a
// head's name inside a tooltip): messages nest.
QString fill(const Direction& d, const Pattern& p, const QRegularExpressionMatch& m,
             const QStringList& contexts, int depth) {
    QString out;
    qsizetype pos = 0;
    for (auto it = placeholder().globalMatch(p.target); it.hasNext();) {
        const auto t = it.next();
        out += p.target.mid(pos, t.capturedStart() - pos) +
               translated(d, m.captured(groupName(t)), contexts, depth + 1);
        pos = t.capturedEnd();
    }
    return out + p.target.mid(pos);
}

QString translated(const Direction& d, const QString& text, const QStringList& contexts,
                   int depth) {
    if (text.isEmpty() || depth > 3)
        return text;
    QList<const QPair<QString, QString>*> exact;
    for (auto it = d.exact.constFind(text); it != d.exact.constEnd() && it.key() == text; ++it)
        exact << &it.value();
    if (const auto* e = nearest(exact, contexts, [](const auto& x) { return x.first; }))
        return e->second;
    // The surest pattern that matches; of equally sure ones, the nearest class's.
    QList<const Pattern*> matched;
    QList<QRegularExpressionMatch> matches;
    for (const Pattern& p : d.patterns) {
        if (!matched.isEmpty() && p.literal < matched.front()->literal)
            break;
        if (!text.startsWith(p.prefix) || !text.endsWith(p.suffix))
            continue;
        if (auto m = p.re.match(text); m.hasMatch()) {
            matched << &p;
            matches << m;
        }
    }
    const Pattern* p = nearest(matched, contexts, [](const Pattern& x) { return x.context; });
    return p ? fill(d, *p, matches[matched.indexOf(p)], contexts, depth) : text;
}

QLocale localeFor(const QString& code) {
    if (code == QLatin1String("ko"))
        return QLocale(QLocale::Korean, QLocale::SouthKorea);
    const QLocale system = QLocale::system();
    return system.language() == QLocale::Korean ? QLocale(QLocale::English, QLocale::UnitedStates)
                                                : system;
}

} // namespace

// Without its mnemonic, as a tooltip or a list shows an action: "&Open" and the Korean
// convention "열기(&O)" both lose it whole ("Open", "열기"), not just the ampersand ("열기(O)").
QString withoutMnemonic(QString text) {
    static const QRegularExpression group(QStringLiteral("\\(&[^&\\s]\\)"));
    static const QRegularExpression amp(QStringLiteral("&(?!&)"));
    return text.remove(group).remove(amp).replace(QStringLiteral("&&"), QStringLiteral("&"));
}

QStringList interfaceLanguages() {
    return {QStringLiteral("en"), QStringLiteral("ko")};
}

QString languageName(const QString& code) {
    return code == QLatin1String("ko") ? QStringLiteral("한국어") : QStringLiteral("English");
}

QString systemLanguage() {
    return QLocale::system().language() == QLocale::Korean ? QStringLiteral("ko")
                                                           : QStringLiteral("en");
}

bool installLanguage(const QString& code) {
    Installed& s = installed();
    if (!interfaceLanguages().contains(code))
        return false;
    if (code == s.code)
        return true;
    QTranslator* ours = nullptr;
    QTranslator* qts = nullptr;
    if (code != QLatin1String("en")) {
        ours = new QTranslator(QCoreApplication::instance());
        if (!ours->load(QStringLiteral(":/i18n/captionlens_%1.qm").arg(code))) {
            delete ours;
            return false;
        }
        qts = new QTranslator(QCoreApplication::instance());
        if (!qts->load(QStringLiteral("qtbase_") + code,
                       QLibraryInfo::path(QLibraryInfo::TranslationsPath))) {
            delete qts; // Qt's dialogs stay in English; ours are translated
            qts = nullptr;
        }
    }
    for (QTranslator* old : {s.ours, s.qts})
        if (old) {
            QCoreApplication::removeTranslator(old);
            delete old;
        }
    s = {code, ours, qts};
    for (QTranslator* t : {ours, qts})
        if (t)
            QCoreApplication::installTranslator(t);
    QLocale::setDefault(localeFor(code));
    return true;
}

QString installedLanguage() {
    return installed().code;
}

const std::vector<CatalogueMessage>& koreanCatalogue() {
    static const std::vector<CatalogueMessage> catalogue = readCatalogue();
    return catalogue;
}

QString translateShown(const QString& text, const QString& from, const QString& to,
                       const QStringList& contexts) {
    if (from == to || text.isEmpty() || (from != QLatin1String("ko") && to != QLatin1String("ko")))
        return text;
    static const Direction toKorean = makeDirection(true), toEnglish = makeDirection(false);
    return translated(to == QLatin1String("ko") ? toKorean : toEnglish, text, contexts, 0);
}

} // namespace cl::ui
