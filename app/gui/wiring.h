#pragma once
// Connects a window to a model worker living on its own thread.
#include <QThread>

#include <memory>

namespace cl {

class CaptionWorker;
namespace ui {
class MainWindow;
}

// Owns the model thread; stops it (after the current request) on destruction.
class ModelThread final {
  public:
    explicit ModelThread(ui::MainWindow& window);
    ~ModelThread();
    CaptionWorker* worker() const { return m_worker; }

  private:
    QThread m_thread;
    CaptionWorker* m_worker;
};

} // namespace cl
