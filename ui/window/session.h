#pragma once
// The state behind the window, without widgets: the caption on screen, the model the worker holds
// and the requests in flight. Every request carries an id; a newer request of the same purpose
// supersedes an older one (its answer is dropped) and a failure leaves the view and the model as
// they were. Lessons are replayed here too: model, then input, then heads, then the view.
// Tested without a window (tests/tst_session.cpp).
#include "model/shapes/scene.h"
#include "ui/imaging/image_loader.h"
#include "ui/panels/caption_view.h"
#include "ui/lessons/lesson.h"
#include "ui/window/requests.h"

#include <QObject>

#include <array>
#include <optional>

namespace cl::ui {

// What a main caption is of: an image (or edited scene), or one feature row.
struct CaptionInput {
    LoadedImage image;           // null for feature rows
    std::vector<float> features; // one row of the model's input width
    QString name;                // shown in the title
    QString featuresPath;        // absolute, for lessons
    int featuresRow = 0;
    bool fromEditor = false;        // the scene editor's scene
    std::optional<SceneSpec> scene; // set when the input is a shapes-world scene
};

class Session final : public QObject {
    Q_OBJECT
  public:
    explicit Session(QObject* parent = nullptr);

    void caption(const CaptionInput& input); // supersedes any caption still on its way
    void recaption();                        // the latest input again (heads, length changed)
    // A variant of the caption on screen: a forced prefix (Branch) or no positional encoding
    // (Ablation); answered through branchReady / ablationReady.
    void requestVariant(CaptionPurpose purpose, const std::vector<int64_t>& prefix,
                        bool positional);
    // Beam search on the input on screen (answered through beamReady), and showing one of its
    // hypotheses in every panel (its tokens forced); an empty list goes back to greedy decoding.
    void requestBeam(const cl::BeamOptions& options);
    void showHypothesis(const std::vector<int64_t>& ids);
    const std::vector<int64_t>& shownHypothesis() const { return m_mainPrefix; }
    // Explains a word of the caption on screen (answered through explainReady or explainFailed);
    // for a shapes scene, the word's object makes the pointing game.
    void requestExplain(const cl::ExplainOptions& options);
    // The Q . K walkthrough of one head for a word of the caption on screen (walkthroughReady).
    void requestWalkthrough(const cl::WalkthroughOptions& options);
    // What switching each head off alone costs the input on screen, every head on
    // (headImportanceReady); a forced branch or beam hypothesis on screen is scored as shown.
    void requestHeadImportance();
    // Activation patching of the input on screen (clean) against `corrupt`, with the logit lens
    // of the clean caption (circuitsReady or circuitsFailed); cancelCircuits drops the answer.
    void requestCircuits(const cl::RgbImage& corrupt, const cl::PatchOptions& options);
    void cancelCircuits();
    void openCheckpoint(const QString& path, const QString& device);
    void cancel(); // drops the checkpoint load and the caption in flight
    void setHeadsOff(const std::vector<uint8_t>& off); // re-captions what is on screen
    // The input shown before the scene editor took over (empty name: none), and going back to it.
    const CaptionInput& beforeEditor() const { return m_beforeEditor; }
    void backFromEditor();
    void setMaxLength(int tokens) { m_maxLength = tokens; }
    int maxLength() const { return m_maxLength; }
    // Compares checkpoints (or a run's snapshots) on the input of the caption on screen.
    void compare(CompareRequest::Purpose purpose, const QStringList& paths);

    // Lessons: the window checks the files; this replays it in order and says when to apply.
    void playLesson(const Lesson& lesson, const QString& device);
    bool lessonPending() const { return m_lesson.has_value(); }

    const CaptionView& view() const { return m_view; }
    const ModelInfo& model() const { return m_model; }
    const CaptionInput& shown() const { return m_shown; } // the input of the view
    const CaptionInput& latest() const { return m_latest; }
    const std::vector<uint8_t>& headsOff() const { return m_headsOff; }
    bool busy() const { return pending(CaptionPurpose::Main) != 0 || m_checkpointId != 0; }
    bool viewFromEditor() const { return m_shown.fromEditor && m_view.valid(); }

    // Every answer of the worker: dropped unless it is the newest request of its purpose.
    void onAnswered(const cl::ui::CaptionAnswer& answer);
    void onCheckpointOpened(quint64 id, const cl::ModelInfo& info);
    void onCheckpointFailed(quint64 id, const QString& message);

  signals:
    void captionRequested(const cl::ui::CaptionRequest& request);
    void checkpointRequested(const cl::ui::CheckpointRequest& request);
    void checkpointCancelled(quint64 id);
    void compareRequested(const cl::ui::CompareRequest& request);
    // A new caption is on screen; keepSelection: an edit of the scene already shown (a drag).
    void viewChanged(bool keepSelection);
    void branchReady(const cl::CaptionTrace& trace);
    void ablationReady(const cl::CaptionTrace& trace);
    void referenceReady(const cl::CaptionTrace& trace); // every head on, while some are off
    void beamReady(const cl::BeamCaption& result);
    void explainReady(const cl::Explanation& result);
    void explainFailed(const QString& message);
    void walkthroughReady(const cl::AttentionWalkthrough& result);
    void walkthroughFailed(const QString& message);
    void headImportanceReady(const cl::HeadImportance& result);
    void headImportanceFailed(const QString& message);
    void circuitsReady(const cl::ui::CircuitsResult& result);
    void circuitsFailed(const QString& message);
    void modelChanged(const cl::ModelInfo& info);
    void busyChanged(const QString& message); // empty when idle
    void failed(const QString& message);
    // Lesson replay: its input is due (compare list, timeline, the input itself), its heads are
    // switched, its view (selection, panel) is due.
    void lessonInputDue(const cl::ui::Lesson& lesson);
    void lessonHeadsDue(const std::vector<uint8_t>& off);
    void lessonViewDue(const cl::ui::Lesson& lesson);

  private:
    CaptionRequest makeRequest(CaptionPurpose purpose, const CaptionInput& input);
    // A request about the caption on screen: its tokens forced, so the worker sees exactly it.
    CaptionRequest onScreenRequest(CaptionPurpose purpose);
    // Sends the request, remembering it as the newest of its purpose.
    void send(const CaptionRequest& request);
    quint64& pending(CaptionPurpose p) { return m_pending[index(p)]; }
    quint64 pending(CaptionPurpose p) const { return m_pending[index(p)]; }
    // The answer's value to the signal of its purpose (one case each), or its failure.
    void deliver(const CaptionAnswer& answer);
    void fail(CaptionPurpose purpose, const QString& message);
    void showCaption(const cl::CaptionTrace& trace);
    void finishLessonStage();

    CaptionView m_view;
    ModelInfo m_model;
    CaptionInput m_latest; // the input of the newest main request
    CaptionInput m_shown;  // the input of m_view
    CaptionInput m_beforeEditor;
    std::vector<uint8_t> m_captionHeadsOff; // what the caption in flight was asked with
    std::vector<uint8_t> m_headsOff;
    bool m_captionBeam = false; // the caption in flight is a beam hypothesis (m_mainPrefix)
    bool m_sameInput = false; // the caption in flight re-reads the shown input (heads switched)
    int m_maxLength = 30;
    quint64 m_nextId = 1;
    std::array<quint64, kCaptionPurposes> m_pending{}; // the newest request id per purpose
    std::vector<int64_t> m_mainPrefix; // a beam hypothesis shown instead of the greedy caption
    quint64 m_checkpointId = 0;
    QString m_checkpointPath;
    std::optional<Lesson> m_lesson;
    enum class LessonStage { Model, Caption, Heads } m_lessonStage = LessonStage::Model;
};

} // namespace cl::ui
