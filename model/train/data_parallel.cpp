#include "model/train/data_parallel.h"

// Built when CMake finds c10d's and Gloo's headers (CAPTIONLENS_DISTRIBUTED; otherwise
// data_parallel_off.cpp). ProcessGroupGloo.hpp declares its class only for builds with the Gloo
// backend, which Debian's LibTorch is (the symbols are in libtorch_cpu); the headers come from
// libgloo-dev. A pip PyTorch ships c10d's headers without Gloo's.
// The ranks meet at our own store (model/rendezvous), not c10d's TCPStore: that one listens on
// every interface whatever --master says and believes the lengths a peer sends (issue 41).
#include "model/rendezvous/client.h"
#include "model/rendezvous/server.h"

#define USE_C10D_GLOO 1
#include <torch/csrc/distributed/c10d/ProcessGroupGloo.hpp>
#include <torch/csrc/distributed/c10d/Store.hpp>

#ifdef CAPTIONLENS_HAVE_GLOG
#include <glog/logging.h>
#endif

#include <algorithm>
#include <cstdlib>
#include <mutex>
#include <stdexcept>

namespace cl {

namespace {

constexpr int64_t kBucketElements = 1 << 18; // 1 MiB of float32 per allreduce

// c10d's messages start with "[file:line] " and may run over several lines: keep the reason.
std::string reason(const std::exception& e) {
    std::string s = e.what();
    if (const auto* c = dynamic_cast<const c10::Error*>(&e))
        s = c->what_without_backtrace();
    s = s.substr(0, s.find('\n'));
    if (!s.empty() && s[0] == '[' && s.find("] ") != std::string::npos)
        s = s.substr(s.find("] ") + 2);
    return s.size() > 300 ? s.substr(0, 300) + "..." : s;
}

bool loopback(const std::string& host) {
    return host == "localhost" || host == "::1" || host.rfind("127.", 0) == 0;
}

std::shared_ptr<::gloo::transport::Device> device(const std::string& masterHost) {
    if (const char* ifname = std::getenv("GLOO_SOCKET_IFNAME"); ifname && *ifname)
        return c10d::ProcessGroupGloo::createDeviceForInterface(ifname);
    if (loopback(masterHost)) // every rank on this machine
        return c10d::ProcessGroupGloo::createDeviceForHostname("127.0.0.1");
    return c10d::ProcessGroupGloo::createDefaultDevice();
}

using Bytes = std::vector<uint8_t>;

std::string asText(const Bytes& b) {
    return std::string(b.begin(), b.end());
}

Bytes asBytes(const std::string& s) {
    return Bytes(s.begin(), s.end());
}

rendezvous::Request request(rendezvous::Op op, std::vector<std::string> keys,
                            std::string value = {}) {
    rendezvous::Request r;
    r.op = op;
    r.keys = std::move(keys);
    r.value = std::move(value);
    return r;
}

// c10d's Store interface, for ProcessGroupGloo, over a rendezvous::Client (one request at a time:
// Gloo's threads share it).
class RendezvousStore : public c10d::Store {
  public:
    RendezvousStore(std::unique_ptr<rendezvous::Client> client, std::chrono::milliseconds timeout)
        : Store(timeout), m_client(std::move(client)) {}

    void set(const std::string& key, const Bytes& value) override {
        call(rendezvous::Op::Set, {key}, asText(value));
    }
    Bytes compareSet(const std::string& key, const Bytes& expected, const Bytes& value) override {
        auto r = request(rendezvous::Op::CompareSet, {key}, asText(value));
        r.expected = asText(expected);
        return asBytes(send(r, timeout_).value);
    }
    Bytes get(const std::string& key) override {
        return asBytes(call(rendezvous::Op::Get, {key}).value);
    }
    int64_t add(const std::string& key, int64_t value) override {
        auto r = request(rendezvous::Op::Add, {key});
        r.number = value;
        return send(r, timeout_).number;
    }
    bool deleteKey(const std::string& key) override {
        return call(rendezvous::Op::Delete, {key}).number != 0;
    }
    bool check(const std::vector<std::string>& keys) override {
        return call(rendezvous::Op::Check, keys).number != 0;
    }
    int64_t getNumKeys() override { return call(rendezvous::Op::NumKeys, {}).number; }
    void wait(const std::vector<std::string>& keys) override { wait(keys, timeout_); }
    void wait(const std::vector<std::string>& keys,
              const std::chrono::milliseconds& timeout) override {
        const auto r = request(rendezvous::Op::Wait, keys);
        send(r, timeout == kNoTimeout ? timeout_ : timeout);
    }

  private:
    rendezvous::Reply call(rendezvous::Op op, std::vector<std::string> keys,
                           std::string value = {}) {
        return send(request(op, std::move(keys), std::move(value)), timeout_);
    }
    rendezvous::Reply send(const rendezvous::Request& r, std::chrono::milliseconds timeout) {
        std::lock_guard<std::mutex> lock(m_mutex);
        return m_client->call(r, timeout);
    }
    std::mutex m_mutex;
    std::unique_ptr<rendezvous::Client> m_client;
};

} // namespace

struct DataParallel::Group {
    std::unique_ptr<rendezvous::Server> server; // rank 0's
    c10::intrusive_ptr<RendezvousStore> store;
    c10::intrusive_ptr<c10d::ProcessGroupGloo> pg;
    std::string where; // "rank 1 of 2"
    double timeout = 0;

    template <typename F> void run(const char* what, F&& f) {
        try {
            f();
        } catch (const std::exception& e) {
            throw std::runtime_error(where + ": another rank died or stopped answering (" + what +
                                     ": " + reason(e) + "; --timeout " +
                                     std::to_string(int(timeout)) + " s)");
        }
    }
};

DataParallel::DataParallel(const ParallelOptions& o) : m_rank(o.rank), m_size(o.worldSize) {
    checkParallelOptions(o);
    if (o.worldSize == 1)
        return;
#ifdef CAPTIONLENS_HAVE_GLOG
    // c10d logs its retries and timeouts to stderr through glog before it throws; the exception
    // is what the user reads (one line), so only fatal messages stay.
    FLAGS_minloglevel = google::GLOG_FATAL;
#endif
    m_group = std::make_unique<Group>();
    m_group->where = "rank " + std::to_string(o.rank) + " of " + std::to_string(o.worldSize);
    m_group->timeout = o.timeoutSeconds;
    const auto timeout = std::chrono::milliseconds(static_cast<int64_t>(o.timeoutSeconds * 1000));
    try {
        meet(o, timeout);
        auto po = c10d::ProcessGroupGloo::Options::create(timeout);
        po->devices.push_back(device(o.host));
        po->threads = 2;
        m_group->pg = c10::make_intrusive<c10d::ProcessGroupGloo>(m_group->store, int(o.rank),
                                                                  int(o.worldSize), po);
    } catch (const std::exception& e) {
        throw std::runtime_error(m_group->where + ": no rendezvous with all " +
                                 std::to_string(o.worldSize) + " ranks at " + o.host + ":" +
                                 std::to_string(o.port) + " within " +
                                 std::to_string(int(o.timeoutSeconds)) + " s (" + reason(e) + ")");
    }
}

// Rank 0 listens; every rank joins the store, then waits for all the others: one --timeout in all
// for a rank that never comes (c10d's TCPStore and then Gloo waited one each).
void DataParallel::meet(const ParallelOptions& o, std::chrono::milliseconds timeout) {
    const auto deadline = rendezvous::Clock::now() + timeout;
    if (o.rank == 0)
        m_group->server = std::make_unique<rendezvous::Server>(
            o.host, o.port, o.worldSize, std::min(timeout, std::chrono::milliseconds(10000)));
    auto client = std::make_unique<rendezvous::Client>(o.host, o.port, o.worldSize, o.rank,
                                                       deadline);
    m_group->store = c10::make_intrusive<RendezvousStore>(std::move(client), timeout);
    if (m_group->store->add("joined", 1) == o.worldSize)
        m_group->store->set("everyone", {1});
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - rendezvous::Clock::now());
    m_group->store->wait({"everyone"}, std::max(left, std::chrono::milliseconds(1)));
}

DataParallel::~DataParallel() = default;

bool dataParallelAvailable() {
    return true;
}

void DataParallel::agree(const std::string& what, const std::string& text) {
    if (!m_group)
        return;
    const std::string key = "agree/" + what;
    std::string leaders;
    m_group->run("the rendezvous", [&] {
        if (leader())
            m_group->store->set(key, std::vector<uint8_t>(text.begin(), text.end()));
        const auto v = m_group->store->get(key);
        leaders.assign(v.begin(), v.end());
    });
    if (leaders != text)
        throw std::invalid_argument(m_group->where + ": its " + what + " (" + text +
                                    ") differ from rank 0's (" + leaders +
                                    "); every rank needs the same command");
}

void DataParallel::broadcast(const std::vector<torch::Tensor>& tensors) {
    if (!m_group)
        return;
    m_group->run("broadcast", [&] {
        for (const auto& t : tensors) {
            std::vector<at::Tensor> one{t};
            m_group->pg->broadcast(one)->wait();
        }
    });
}

void DataParallel::sum(const torch::Tensor& tensor) {
    if (!m_group)
        return;
    m_group->run("allreduce", [&] {
        std::vector<at::Tensor> one{tensor};
        m_group->pg->allreduce(one)->wait();
    });
}

void DataParallel::sumGradients(const std::vector<torch::Tensor>& params) {
    if (!m_group)
        return;
    torch::NoGradGuard ng;
    std::vector<std::vector<torch::Tensor>> buckets(1);
    int64_t filled = 0;
    for (const auto& p : params) {
        if (!p.grad().defined())
            continue;
        if (filled > 0 && filled + p.numel() > kBucketElements) {
            buckets.emplace_back();
            filled = 0;
        }
        buckets.back().push_back(p.grad());
        filled += p.numel();
    }
    std::vector<torch::Tensor> flat;
    std::vector<c10::intrusive_ptr<c10d::Work>> work;
    m_group->run("gradient allreduce", [&] {
        for (const auto& b : buckets) {
            if (b.empty())
                continue;
            std::vector<torch::Tensor> views;
            for (const auto& g : b)
                views.push_back(g.reshape({-1}));
            flat.push_back(torch::cat(views));
            std::vector<at::Tensor> one{flat.back()};
            work.push_back(m_group->pg->allreduce(one));
        }
        for (auto& w : work)
            w->wait();
    });
    size_t k = 0;
    for (const auto& b : buckets) {
        if (b.empty())
            continue;
        int64_t at = 0;
        for (const auto& g : b) {
            g.copy_(flat[k].narrow(0, at, g.numel()).view_as(g));
            at += g.numel();
        }
        ++k;
    }
}

} // namespace cl
