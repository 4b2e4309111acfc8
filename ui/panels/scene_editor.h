#pragma once
// The scene editor: place, drag, recolour and resize shapes; every edit re-renders the scene and
// asks for a new caption, so a class watches "left of" become "right of" as an object moves.
// Shows the scene's reference caption next to the model's, and the selected word's attention.
#include "model/shapes/scene.h"
#include "ui/panels/caption_view.h"
#include "ui/panels/panel.h"

#include <QElapsedTimer>
#include <QWidget>

class QCheckBox;
class QComboBox;
class QLabel;
class QPushButton;

namespace cl::ui {

class SceneCanvas;
class OpacitySlider;
class Selection;
class WordChips;
class WorldNotice;

class SceneEditor final : public QWidget, public Panel {
    Q_OBJECT
  public:
    SceneEditor(Selection* selection, QWidget* parent = nullptr);

    void setSpec(const SceneSpec& spec); // emits sceneEdited
    // The scene the other panels already show (a random scene): no new caption is asked for.
    void showScene(const SceneSpec& spec);
    // What the other panels show: this editor's scene, or another input (`name`); `backTo` names
    // the input an edit replaced (empty: none), offered as a way back.
    void setShowing(const QString& name, bool thisScene, const QString& backTo);
    QString showingText() const;
    QPushButton* showingButton() const { return m_switch; }
    const SceneSpec& spec() const;
    QImage sceneImage() const;
    SceneCanvas* canvas() const { return m_canvas; }
    // A caption arrived; it is the editor's when its image is the scene on the canvas.
    void setView(const CaptionView& view) override;
    bool showsCurrentScene() const { return m_captionCurrent; }
    QString worldNotice() const; // the out-of-world sentence above the caption, or empty
    QString referenceText() const;
    QString modelText() const;
    double lastLatencyMs() const { return m_latencyMs; } // edit -> caption shown here, -1 none

    void addObject();
    void deleteSelected();
    void randomScene();

  signals:
    void sceneEdited(const QImage& image); // the window re-captions it
    void backRequested();                  // "Back to <file>": the window re-shows that input

  private:
    void edited();
    void syncControls();
    void applyControls();
    void refreshOverlay();
    void showReference();

    Selection* m_selection;
    SceneCanvas* m_canvas;
    CaptionView m_view;
    QComboBox *m_shape, *m_colour, *m_size;
    QPushButton *m_add, *m_delete, *m_random;
    QCheckBox* m_overlay;
    QLabel *m_reference, *m_model, *m_latency, *m_showing;
    WorldNotice* m_world;
    QPushButton* m_switch;
    OpacitySlider* m_opacity;
    bool m_offerBack = false;
    WordChips* m_chips;
    QElapsedTimer m_clock;
    double m_latencyMs = -1;
    bool m_captionCurrent = false;
    quint64 m_seed = 1;
    bool m_syncing = false;
};

} // namespace cl::ui
