#include "ui/window/session.h"

#include "model/evaluation/explain_eval.h"

#include <QFileInfo>

#include <algorithm>
#include <utility>

namespace cl::ui {

namespace {
// QFileInfo's == calls two missing files the same (both canonical paths are empty).
bool sameFile(const QString& a, const QString& b) {
    const QFileInfo x(a), y(b);
    if (x.absoluteFilePath() == y.absoluteFilePath())
        return true;
    return x.exists() && y.exists() && x.canonicalFilePath() == y.canonicalFilePath();
}
} // namespace

Session::Session(QObject* parent) : QObject(parent) {
    qRegisterMetaType<cl::CaptionTrace>();
    qRegisterMetaType<cl::BeamCaption>();
    qRegisterMetaType<cl::Explanation>();
    qRegisterMetaType<cl::AttentionWalkthrough>();
    qRegisterMetaType<cl::HeadImportance>();
    qRegisterMetaType<cl::ui::CircuitsResult>();
    qRegisterMetaType<cl::ModelInfo>();
    qRegisterMetaType<cl::ui::CaptionRequest>();
    qRegisterMetaType<cl::ui::CaptionAnswer>();
    qRegisterMetaType<cl::ui::CheckpointRequest>();
    qRegisterMetaType<cl::ui::CompareRequest>();
    qRegisterMetaType<cl::ui::CompareResult>();
}

CaptionRequest Session::makeRequest(CaptionPurpose purpose, const CaptionInput& input) {
    CaptionRequest r;
    r.id = m_nextId++;
    r.purpose = purpose;
    r.image = input.image.rgb;
    r.features = input.features;
    r.options.maxLength = m_maxLength;
    r.options.topK = 5;
    r.options.keepLogits = true;
    r.options.headsOff = m_headsOff;
    if (purpose == CaptionRequest::Main && !m_mainPrefix.empty()) {
        r.options.forcedPrefix = m_mainPrefix;
        r.beamChoice = true;
    }
    return r;
}

void Session::requestBeam(const cl::BeamOptions& options) {
    if (!m_view.valid())
        return;
    CaptionRequest r = makeRequest(CaptionRequest::Beam, m_shown);
    r.beam = options;
    send(r);
}

void Session::showHypothesis(const std::vector<int64_t>& ids) {
    if (!m_view.valid() || ids == m_mainPrefix)
        return;
    m_mainPrefix = ids;
    m_latest = m_shown;
    recaption();
}

CaptionRequest Session::onScreenRequest(CaptionPurpose purpose) {
    CaptionRequest r = makeRequest(purpose, m_shown);
    r.options.forcedPrefix.clear(); // exactly the caption on screen
    for (const auto& s : m_view.trace.steps)
        r.options.forcedPrefix.push_back(s.id);
    return r;
}

void Session::requestExplain(const cl::ExplainOptions& options) {
    if (!m_view.valid())
        return;
    CaptionRequest r = onScreenRequest(CaptionRequest::Explain);
    r.explain = options;
    if (m_shown.scene)
        r.explain.target = explainTarget(m_view.trace.words(), options.word, *m_shown.scene);
    send(r);
}

void Session::requestWalkthrough(const cl::WalkthroughOptions& options) {
    if (!m_view.valid())
        return;
    CaptionRequest r = onScreenRequest(CaptionRequest::Walkthrough);
    r.walkthrough = options;
    send(r);
}

void Session::requestHeadImportance() {
    if (!m_view.valid())
        return;
    CaptionRequest r = makeRequest(CaptionRequest::HeadImportance, m_shown);
    r.options.forcedPrefix = m_mainPrefix; // a beam hypothesis on screen
    size_t forced = 0;                     // or the user's forced words, up to the last
    for (size_t t = 0; t < m_view.trace.steps.size(); ++t)
        if (m_view.trace.steps[t].forced)
            forced = t + 1;
    for (size_t t = 0; r.options.forcedPrefix.empty() && t < forced; ++t)
        r.options.forcedPrefix.push_back(m_view.trace.steps[t].id);
    send(r);
}

void Session::requestCircuits(const cl::RgbImage& corrupt, const cl::PatchOptions& options) {
    if (!m_view.valid())
        return;
    CaptionRequest r = makeRequest(CaptionRequest::Circuits, m_shown);
    r.corrupt = corrupt;
    r.patch = options;
    send(r);
}

void Session::cancelCircuits() {
    pending(CaptionPurpose::Circuits) = 0; // its answer, when it comes, is dropped
}

void Session::caption(const CaptionInput& input) {
    if (input.fromEditor && !m_latest.fromEditor && !m_latest.name.isEmpty())
        m_beforeEditor = m_latest; // the way back from the scene editor
    m_latest = input;
    m_sameInput = false;
    m_mainPrefix.clear(); // a new input starts from its greedy caption
    recaption();
}

void Session::backFromEditor() {
    if (!m_beforeEditor.name.isEmpty())
        caption(m_beforeEditor);
}

void Session::recaption() {
    const CaptionRequest r = makeRequest(CaptionRequest::Main, m_latest);
    m_captionHeadsOff = r.options.headsOff;
    m_captionBeam = r.beamChoice;
    emit busyChanged(tr("Captioning %1…").arg(m_latest.name));
    send(r);
}

void Session::requestVariant(CaptionPurpose purpose, const std::vector<int64_t>& prefix,
                             bool positional) {
    if (!m_view.valid())
        return;
    CaptionRequest r = makeRequest(purpose, m_shown);
    r.options.forcedPrefix = prefix;
    r.options.positionalEncoding = positional;
    send(r);
}

void Session::setHeadsOff(const std::vector<uint8_t>& off) {
    m_headsOff = off;
    if (!m_view.valid())
        return;
    m_sameInput = true; // the class keeps looking at the same word and head
    recaption();
}

void Session::compare(CompareRequest::Purpose purpose, const QStringList& paths) {
    CompareRequest r;
    r.id = m_nextId++;
    r.purpose = purpose;
    r.paths = paths;
    r.teacherForce = purpose == CompareRequest::Compare;
    if (purpose == CompareRequest::Compare) // the model on screen, as it is shown: heads off too
        for (const QString& p : paths)
            r.headsOff.push_back(sameFile(p, QString::fromStdString(m_model.path))
                                     ? m_headsOff
                                     : std::vector<uint8_t>());
    r.image = m_shown.image.rgb;
    r.features = m_shown.features;
    r.maxLength = m_maxLength;
    emit compareRequested(r);
}

void Session::send(const CaptionRequest& r) {
    pending(r.purpose) = r.id;
    emit captionRequested(r);
}

void Session::onAnswered(const CaptionAnswer& answer) {
    quint64& newest = pending(answer.purpose);
    if (answer.id == 0 || answer.id != newest)
        return; // superseded by a newer request of its purpose, or not ours
    newest = 0;
    if (!answer.error.isEmpty())
        return fail(answer.purpose, answer.error);
    deliver(answer);
}

namespace {
// The answer's value as the type its purpose promises; a worker that broke the promise is a
// failure, not an exception out of a slot.
template <typename T> const T* valueOf(const CaptionAnswer& a) {
    return std::get_if<T>(&a.value);
}
} // namespace

void Session::deliver(const CaptionAnswer& a) {
    using P = CaptionPurpose;
    const auto* trace = valueOf<CaptionTrace>(a);
    switch (a.purpose) {
    case P::Main:
        return trace ? showCaption(*trace) : fail(a.purpose, tr("the worker sent no caption"));
    case P::Branch:
        return trace ? emit branchReady(*trace) : fail(a.purpose, tr("no branch came back"));
    case P::Ablation:
        return trace ? emit ablationReady(*trace) : fail(a.purpose, tr("no ablation came back"));
    case P::Reference:
        return trace ? emit referenceReady(*trace) : fail(a.purpose, tr("no reference came back"));
    case P::Beam:
        if (const auto* beam = valueOf<BeamCaption>(a))
            return emit beamReady(*beam);
        return fail(a.purpose, tr("no beam search came back"));
    case P::Explain:
        if (const auto* e = valueOf<Explanation>(a))
            return emit explainReady(*e);
        return fail(a.purpose, tr("no explanation came back"));
    case P::Walkthrough:
        if (const auto* w = valueOf<AttentionWalkthrough>(a))
            return emit walkthroughReady(*w);
        return fail(a.purpose, tr("no walkthrough came back"));
    case P::HeadImportance:
        if (const auto* h = valueOf<HeadImportance>(a))
            return emit headImportanceReady(*h);
        return fail(a.purpose, tr("no head importance came back"));
    case P::Circuits:
        if (const auto* c = valueOf<CircuitsResult>(a))
            return emit circuitsReady(*c);
        return fail(a.purpose, tr("no patching came back"));
    }
}

void Session::showCaption(const cl::CaptionTrace& trace) {
    // While a shape is dragged, or heads are switched off and on, the word and head stay put,
    // so the class can watch them change.
    const bool keepSelection = (std::exchange(m_sameInput, false) ||
                                (m_latest.fromEditor && viewFromEditor())) &&
                               trace.layers == m_view.trace.layers &&
                               trace.heads == m_view.trace.heads;
    m_shown = m_latest;
    m_view.image = m_shown.image.image;
    m_view.imageName = m_shown.name;
    m_view.scene = m_shown.scene;
    m_view.trace = trace;
    m_view.model = m_model;
    m_view.headsOff = int(std::count(m_captionHeadsOff.begin(), m_captionHeadsOff.end(), 1));
    m_view.beamHypothesis = m_captionBeam;
    emit busyChanged({});
    emit viewChanged(keepSelection);
    if (m_view.headsOff > 0) { // what every head says about the same input, for comparison
        CaptionRequest r = makeRequest(CaptionRequest::Reference, m_shown);
        r.options.headsOff.clear();
        send(r);
    }
    if (m_lesson)
        finishLessonStage();
}

void Session::fail(CaptionPurpose purpose, const QString& message) {
    using P = CaptionPurpose;
    switch (purpose) {
    case P::Explain:
        return emit explainFailed(message);
    case P::Walkthrough:
        return emit walkthroughFailed(message);
    case P::HeadImportance:
        return emit headImportanceFailed(message);
    case P::Circuits:
        return emit circuitsFailed(message);
    case P::Branch:
    case P::Ablation:
    case P::Reference:
    case P::Beam: // the variants of the caption on screen go together
        for (P p : {P::Branch, P::Ablation, P::Reference, P::Beam})
            pending(p) = 0;
        return emit failed(message);
    case P::Main:
        m_lesson.reset(); // a lesson whose input cannot be captioned stops here
        emit busyChanged({});
        return emit failed(message);
    }
}

void Session::openCheckpoint(const QString& path, const QString& device) {
    CheckpointRequest r;
    r.id = m_nextId++;
    r.path = path;
    r.device = device;
    if (m_checkpointId)
        emit checkpointCancelled(m_checkpointId);
    m_checkpointId = r.id;
    m_checkpointPath = path;
    emit busyChanged(tr("Loading checkpoint %1…").arg(QFileInfo(path).fileName()));
    emit checkpointRequested(r);
}

void Session::cancel() {
    if (m_checkpointId)
        emit checkpointCancelled(m_checkpointId);
    m_checkpointId = 0;
    pending(CaptionPurpose::Main) = 0;
    m_lesson.reset();
    emit busyChanged({});
}

void Session::onCheckpointOpened(quint64 id, const cl::ModelInfo& info) {
    if (id == 0 || id != m_checkpointId)
        return;
    m_checkpointId = 0;
    m_model = info;
    m_headsOff.clear(); // a new model starts with every head on
    emit busyChanged({});
    emit modelChanged(info);
    if (m_lesson && m_lessonStage == LessonStage::Model) {
        m_lessonStage = LessonStage::Caption;
        return emit lessonInputDue(*m_lesson); // the lesson's input follows its model
    }
    // Re-caption the latest input with the new model, unless a caption requested after this
    // checkpoint is already on its way (the worker handles requests in order).
    const bool imageModel = info.config.memory == MemoryKind::ImageGrid;
    const bool haveInput = imageModel ? !m_latest.image.image.isNull() : !m_latest.features.empty();
    const quint64 main = pending(CaptionPurpose::Main);
    if (haveInput && (main == 0 || main < id))
        recaption();
}

void Session::onCheckpointFailed(quint64 id, const QString& message) {
    if (id == 0 || id != m_checkpointId)
        return;
    m_checkpointId = 0;
    m_lesson.reset(); // a lesson whose model cannot load changes nothing
    emit busyChanged({});
    emit failed(message);
}

void Session::playLesson(const Lesson& lesson, const QString& device) {
    m_lesson = lesson;
    m_lessonStage = LessonStage::Model;
    const bool sameModel = lesson.checkpoint.isEmpty() ||
                           sameFile(lesson.checkpoint, QString::fromStdString(m_model.path));
    if (!sameModel)
        return openCheckpoint(lesson.checkpoint, device);
    m_lessonStage = LessonStage::Caption;
    m_headsOff.clear(); // the lesson's own switches follow its first caption
    emit lessonInputDue(lesson);
}

// A lesson's caption is on screen: switch its heads off (one more caption), then its view.
void Session::finishLessonStage() {
    const Lesson l = *m_lesson;
    if (m_lessonStage == LessonStage::Caption && !l.headsOff.empty() && l.headsOff != m_headsOff) {
        m_lessonStage = LessonStage::Heads;
        emit lessonHeadsDue(l.headsOff); // the heads panel answers through setHeadsOff
        if (m_headsOff == l.headsOff)
            return; // re-captioning; the view follows that caption
    }
    m_lesson.reset();
    emit lessonViewDue(l);
}

} // namespace cl::ui
