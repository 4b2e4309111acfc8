// File > Export Animation (issue 40): the caption on screen as an animated GIF for slides,
// painted and encoded off the GUI thread.
#include "ui/animation/frames.h"
#include "ui/imaging/image_writer.h"
#include "ui/panels/selection.h"
#include "ui/panels/timeline_panel.h"
#include "ui/window/animation_dialog.h"
#include "ui/window/background.h"
#include "ui/window/main_window.h"

#include <QDir>
#include <QFileInfo>
#include <QStatusBar>

#include <stdexcept>

namespace cl::ui {

namespace {

QString kindName(AnimationKind k) {
    return k == AnimationKind::Heads      ? QStringLiteral("heads")
           : k == AnimationKind::Timeline ? QStringLiteral("timeline")
                                          : QStringLiteral("decode");
}

} // namespace

void MainWindow::chooseAnimation() {
    if (!view().valid() || view().image.isNull())
        return showError(tr("An animation shows an image's caption: open an image first"));
    // On the Timeline panel the snapshots are what one animates; elsewhere the decoding.
    const bool timeline = !m_timelineStale && !m_timelinePanel->animationSnapshots().empty();
    const AnimationKind first = timeline && currentPanel() == QLatin1String("timeline")
                                    ? AnimationKind::Timeline
                                    : AnimationKind::Decode;
    auto* dialog = new AnimationDialog(
        timeline, [this](AnimationKind k) { return exportName(kindName(k), "gif"); }, first, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QDialog::accepted, this, [this, dialog] {
        dialog->remember();
        exportAnimation(dialog->choice());
    });
    dialog->open();
}

bool MainWindow::exportAnimation(const AnimationChoice& choice) {
    const CaptionView& v = view();
    if (!v.valid() || v.image.isNull()) {
        showError(tr("An animation shows an image's caption: open an image first"));
        return false;
    }
    if (choice.path.isEmpty()) {
        showError(tr("Choose the file the animation goes to"));
        return false;
    }
    std::vector<Snapshot> shots;
    if (choice.kind == AnimationKind::Timeline) {
        if (!m_timelineStale)
            shots = m_timelinePanel->animationSnapshots();
        if (shots.empty()) {
            showError(tr("Open a training run in the Timeline panel first"));
            return false;
        }
    }
    AnimationStyle style = choice.style;
    style.layer = m_selection->layer();
    style.head = m_selection->head();
    const int step = m_selection->step();
    const CaptionTrace trace = v.trace;
    const QImage image = v.image;
    const AnimationKind kind = choice.kind;
    statusBar()->showMessage(tr("Exporting the animation…"));
    ++m_exporting;
    tryInBackground<QByteArray>(
        this,
        [kind, style, step, trace, image, shots] {
            const AnimationFrames a =
                kind == AnimationKind::Timeline ? timelineFrames(shots, image, step, style)
                : kind == AnimationKind::Heads  ? headFrames(trace, image, step, style)
                                                : decodeFrames(trace, image, style);
            const GifResult gif = encodeGif(a);
            if (!gif.error.isEmpty())
                throw std::runtime_error(gif.error.toStdString());
            return gif.bytes;
        },
        [this, path = choice.path](Outcome<QByteArray>& r) {
            --m_exporting;
            const QString error = r.error.isEmpty() ? writeBytes(r.value, path) : r.error;
            if (!error.isEmpty())
                return showErrorSaying(tr("Could not export the animation: %1").arg(error),
                                       tr("No file was written; the window is as it was."));
            statusBar()->showMessage(tr("Exported the animation to %1 (%2 KB)")
                                         .arg(QDir::toNativeSeparators(path))
                                         .arg(r.value.size() / 1024),
                                     8000);
            emit animationExported(path);
        });
    return true;
}

} // namespace cl::ui
