// The Circuits panel's wiring (issue 39): its pair goes to the model worker through the session,
// the answer comes back to the panel; its CSV export asks where to write.
#include "ui/panels/circuits_panel.h"
#include "ui/window/main_window.h"

#include <QFileDialog>

namespace cl::ui {

void MainWindow::buildCircuitsPanel() {
    m_circuitsPanel = new CircuitsPanel(m_tabs);
    addPanel(QStringLiteral("circuits"), m_circuitsPanel, tr("Circ&uits"));
    connect(m_circuitsPanel, &CircuitsPanel::patchRequested, m_session, &Session::requestCircuits);
    connect(m_circuitsPanel, &CircuitsPanel::cancelRequested, m_session,
            &Session::cancelCircuits);
    connect(m_session, &Session::circuitsReady, this, [this](const CircuitsResult& result) {
        circuitsPanel()->setResult(result);
    });
    connect(m_session, &Session::circuitsFailed, this, [this](const QString& message) {
        circuitsPanel()->setFailed(message);
    });
    connect(m_circuitsPanel, &CircuitsPanel::csvRequested, this, [this] {
        const QString path = QFileDialog::getSaveFileName(
            this, tr("Export patching"), exportName(QStringLiteral("circuits"), "csv"),
            tr("CSV (*.csv)"));
        if (!path.isEmpty() && !m_circuitsPanel->writeCsv(path))
            showError(tr("Could not write %1").arg(path));
    });
}

CircuitsPanel* MainWindow::circuitsPanel() const {
    m_panels.refresh(QStringLiteral("circuits"), view());
    return m_circuitsPanel;
}

} // namespace cl::ui
