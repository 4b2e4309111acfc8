#pragma once
// File > Export Animation: what to animate (decoding, the selected word through the layers and
// heads, the Timeline panel's snapshots), each frame's time, the frame width and the file.
#include "ui/animation/frames.h"

#include <QDialog>

#include <functional>

class QComboBox;
class QLineEdit;
class QSpinBox;

namespace cl::ui {

enum class AnimationKind { Decode, Heads, Timeline };

struct AnimationChoice {
    AnimationKind kind = AnimationKind::Decode;
    AnimationStyle style;
    QString path;
};

class AnimationDialog final : public QDialog {
    Q_OBJECT
  public:
    // timelineReady: the Timeline panel has snapshots captioned on the image (else that choice is
    // off, its tooltip says why). nameFor: the suggested file name for a kind.
    // The last frame time and folder come back from the settings; `kind` is chosen first.
    AnimationDialog(bool timelineReady, std::function<QString(AnimationKind)> nameFor,
                    AnimationKind kind, QWidget* parent = nullptr);
    void remember() const; // the frame time and folder, for the next time
    AnimationChoice choice() const;

  private:
    void browse();
    QString suggested(AnimationKind kind) const; // nameFor's name in the last folder
    QComboBox* m_kind;
    QSpinBox* m_frameMs;
    QComboBox* m_width;
    QLineEdit* m_path;
    std::function<QString(AnimationKind)> m_nameFor;
    bool m_pathEdited = false;
};

} // namespace cl::ui
