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
    qRegisterMetaType<cl::ModelInfo>();
    qRegisterMetaType<cl::ui::CaptionRequest>();
    qRegisterMetaType<cl::ui::CheckpointRequest>();
    qRegisterMetaType<cl::ui::CompareRequest>();
    qRegisterMetaType<cl::ui::CompareResult>();
}

CaptionRequest Session::makeRequest(int purpose, const CaptionInput& input) {
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
    m_beamId = r.id;
    emit captionRequested(r);
}

void Session::showHypothesis(const std::vector<int64_t>& ids) {
    if (!m_view.valid() || ids == m_mainPrefix)
        return;
    m_mainPrefix = ids;
    m_latest = m_shown;
    recaption();
}

CaptionRequest Session::onScreenRequest(int purpose) {
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
    m_explainId = r.id;
    emit captionRequested(r);
}

void Session::requestWalkthrough(const cl::WalkthroughOptions& options) {
    if (!m_view.valid())
        return;
    CaptionRequest r = onScreenRequest(CaptionRequest::Walkthrough);
    r.walkthrough = options;
    m_walkId = r.id;
    emit captionRequested(r);
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
    m_headsId = r.id;
    emit captionRequested(r);
}

void Session::onHeadsScored(quint64 id, const cl::HeadImportance& result) {
    if (id == 0 || id != m_headsId)
        return; // superseded
    m_headsId = 0;
    emit headImportanceReady(result);
}

void Session::onWalked(quint64 id, const cl::AttentionWalkthrough& result) {
    if (id == 0 || id != m_walkId)
        return; // superseded
    m_walkId = 0;
    emit walkthroughReady(result);
}

void Session::onExplained(quint64 id, const cl::Explanation& result) {
    if (id == 0 || id != m_explainId)
        return; // superseded
    m_explainId = 0;
    emit explainReady(result);
}

void Session::onBeamed(quint64 id, const cl::BeamCaption& result) {
    if (id == 0 || id != m_beamId)
        return; // superseded
    m_beamId = 0;
    emit beamReady(result);
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
    m_captionId = r.id;
    m_captionHeadsOff = r.options.headsOff;
    m_captionBeam = r.beamChoice;
    emit busyChanged(tr("Captioning %1…").arg(m_latest.name));
    emit captionRequested(r);
}

void Session::requestVariant(int purpose, const std::vector<int64_t>& prefix, bool positional) {
    if (!m_view.valid())
        return;
    CaptionRequest r = makeRequest(purpose, m_shown);
    r.options.forcedPrefix = prefix;
    r.options.positionalEncoding = positional;
    (purpose == CaptionRequest::Branch ? m_branchId : m_ablationId) = r.id;
    emit captionRequested(r);
}

void Session::setHeadsOff(const std::vector<uint8_t>& off) {
    m_headsOff = off;
    if (!m_view.valid())
        return;
    m_sameInput = true; // the class keeps looking at the same word and head
    recaption();
}

void Session::compare(int purpose, const QStringList& paths) {
    CompareRequest r;
    r.id = m_nextId++;
    r.purpose = purpose;
    r.paths = paths;
    r.teacherForce = purpose == CompareRequest::Compare;
    r.image = m_shown.image.rgb;
    r.features = m_shown.features;
    r.maxLength = m_maxLength;
    emit compareRequested(r);
}

void Session::onCaptioned(quint64 id, const cl::CaptionTrace& trace) {
    if (id != 0 && id == m_branchId) {
        m_branchId = 0;
        return emit branchReady(trace);
    }
    if (id != 0 && id == m_ablationId) {
        m_ablationId = 0;
        return emit ablationReady(trace);
    }
    if (id != 0 && id == m_referenceId) {
        m_referenceId = 0;
        return emit referenceReady(trace);
    }
    if (id == 0 || id != m_captionId)
        return; // superseded by a newer request
    m_captionId = 0;
    // While a shape is dragged, or heads are switched off and on, the word and head stay put,
    // so the class can watch them change.
    const bool keepSelection = (std::exchange(m_sameInput, false) ||
                                (m_latest.fromEditor && viewFromEditor())) &&
                               trace.layers == m_view.trace.layers &&
                               trace.heads == m_view.trace.heads;
    m_shown = m_latest;
    m_view.image = m_shown.image.image;
    m_view.imageName = m_shown.name;
    m_view.trace = trace;
    m_view.model = m_model;
    m_view.headsOff = int(std::count(m_captionHeadsOff.begin(), m_captionHeadsOff.end(), 1));
    m_view.beamHypothesis = m_captionBeam;
    emit busyChanged({});
    emit viewChanged(keepSelection);
    if (m_view.headsOff > 0) { // what every head says about the same input, for comparison
        CaptionRequest r = makeRequest(CaptionRequest::Reference, m_shown);
        r.options.headsOff.clear();
        m_referenceId = r.id;
        emit captionRequested(r);
    }
    if (m_lesson)
        finishLessonStage();
}

void Session::onCaptionFailed(quint64 id, const QString& message) {
    if (id != 0 && id == m_explainId) {
        m_explainId = 0;
        return emit explainFailed(message);
    }
    if (id != 0 && id == m_walkId) {
        m_walkId = 0;
        return emit walkthroughFailed(message);
    }
    if (id != 0 && id == m_headsId) {
        m_headsId = 0;
        return emit headImportanceFailed(message);
    }
    if (id != 0 &&
        (id == m_branchId || id == m_ablationId || id == m_referenceId || id == m_beamId)) {
        m_branchId = m_ablationId = m_referenceId = m_beamId = 0;
        return emit failed(message);
    }
    if (id == 0 || id != m_captionId)
        return;
    m_captionId = 0;
    m_lesson.reset(); // a lesson whose input cannot be captioned stops here
    emit busyChanged({});
    emit failed(message);
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
    m_checkpointId = m_captionId = 0;
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
    if (haveInput && (m_captionId == 0 || m_captionId < id))
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
