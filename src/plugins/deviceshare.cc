// deviceshare: shared GPUs as Volcano's gpushare device does them (docs/reference/scheduler.md
// §10.15). With deviceshare.GPUSharingEnable a pod asking volcano.sh/gpu-memory goes only
// where one card has that much memory free, and takes the lowest-numbered such card; with
// deviceshare.GPUNumberEnable a pod asking volcano.sh/gpu-number goes only where that many
// cards are idle (no pod on them), and takes the lowest-numbered ones (Volcano walks a Go
// map there: any idle cards, at random). The cards a placement takes are written as the
// pod's volcano.sh/gpu-index annotation, which its Bind carries. As in Volcano, cards are
// taken and annotations written by the predicates plugin's allocation hook: without
// predicates in the configuration, the filter still runs but nothing is taken.
//
// With deviceshare.VGPUEnable, HAMi's virtual GPUs (hami-core sharing): cards registered by
// the node's volcano.sh/node-vgpu-register, shared by pods asking volcano.sh/vgpu-number,
// -memory and -cores (src/plugins/vgpu_cards.h); a placement writes Volcano's six vGPU
// annotations (volcano.sh/vgpu-ids-new names the cards), and with
// deviceshare.ScheduleWeight the cards' binpack or spread score orders the nodes.
#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "src/model/gpu_share.h"
#include "src/plugins/device_cards.h"
#include "src/plugins/vgpu_cards.h"
#include "src/model/vgpu.h"
#include "src/plugins/plugins.h"
#include "src/util/status_macros.h"
#include "vcsched/arguments.h"

namespace vcsched::internal {
namespace {

struct DeviceShareOptions {
  bool sharing = false;  // deviceshare.GPUSharingEnable: by memory
  bool number = false;   // deviceshare.GPUNumberEnable: whole cards
  bool vgpu = false;     // deviceshare.VGPUEnable: HAMi vGPU
  std::string policy;    // deviceshare.SchedulePolicy: binpack, spread or none (vGPU)
  int64_t weight = 0;    // deviceshare.ScheduleWeight
  std::vector<std::string> unmodelled;  // device kinds switched on that vcsched does not place
};

class DeviceSharePlugin : public Plugin {
 public:
  explicit DeviceSharePlugin(DeviceShareOptions options) : options_(std::move(options)) {}

  absl::Status OnSessionOpen(Session& ssn) override {
    for (const std::string& key : options_.unmodelled) {
      ssn.AddWarning(absl::StrCat("deviceshare: ", key, " is not modelled yet; pods asking those devices are placed ",
                                  "by their resources alone"));
    }
    ssn_ = &ssn;
    if (options_.vgpu) return OpenVgpu(ssn);
    if (!options_.sharing && !options_.number) return absl::OkStatus();
    cards_.Open(ssn);
    memory_ask_.assign(static_cast<size_t>(ssn.num_tasks()), 0);
    number_ask_.assign(static_cast<size_t>(ssn.num_tasks()), 0);
    for (TaskIndex t = 0; t < ssn.num_tasks(); ++t) {
      memory_ask_[static_cast<size_t>(t)] = PodGpuMemory(*ssn.task(t).pod);
      number_ask_[static_cast<size_t>(t)] = PodGpuNumber(*ssn.task(t).pod);
    }
    no_memory_ = "GpuShare no enough gpu memory on node ";
    no_number_ = "GpuNumber no enough gpu number on node ";
    ssn.AddPredicateFn([this](TaskIndex t, NodeIndex n) { return Predicate(t, n); });
    // The answer reads the pod's limits; the shapes that allocate reuses node choices
    // for hold requests, equal to the limits unless a pod sets both apart.
    ssn.AddNodeChoiceVetoFn([this](TaskIndex t) {
      const PodSpec& pod = *ssn_->task(t).pod;
      return AsksDevice(t) && (PodGpuMemoryRequested(pod) != memory_ask_[static_cast<size_t>(t)] ||
                               PodGpuNumberRequested(pod) != number_ask_[static_cast<size_t>(t)]);
    });
    ssn.AddFitCauseFn([this](TaskIndex t, NodeIndex n, absl::string_view reason) { return Cause(t, n, reason); });
    if (PredicatesConfigured(ssn.config())) {
      ssn.AddEventHandler({[this](TaskIndex t) { Placed(t); }, [this](TaskIndex t) { Unplaced(t); }});
    }
    return absl::OkStatus();
  }

 private:
  static bool PredicatesConfigured(const SchedulerConfig& config) {
    for (const Tier& tier : config.tiers) {
      for (const PluginOption& p : tier.plugins) {
        if (p.name == "predicates") return true;
      }
    }
    return false;
  }

  // Volcano's HasDeviceRequest: the pod asks what an enabled mode shares.
  bool AsksDevice(TaskIndex t) const {
    return (options_.sharing && memory_ask_[static_cast<size_t>(t)] > 0) ||
           (options_.number && number_ask_[static_cast<size_t>(t)] > 0);
  }

  FitResult Predicate(TaskIndex t, NodeIndex n) {
    const NodeCards* node = cards_.node(n);
    if (node == nullptr || !AsksDevice(t)) return FitResult::Success();
    const int64_t memory = memory_ask_[static_cast<size_t>(t)];
    if (options_.sharing && memory > 0 && node->FirstWithFree(memory) == nullptr) {
      return FitResult::Fail(FitCode::kUnschedulable,
                             ssn_->InternReason(absl::StrCat(no_memory_, ssn_->node_info(n).spec.name)));
    }
    const int64_t number = number_ask_[static_cast<size_t>(t)];
    if (options_.number && number > 0 && node->IdleCount() < number) {
      return FitResult::Fail(FitCode::kUnschedulable,
                             ssn_->InternReason(absl::StrCat(no_number_, ssn_->node_info(n).spec.name)));
    }
    return FitResult::Success();
  }

  // Volcano's Allocate: a pod asking memory takes the first card with room for it,
  // else one asking cards takes the first idle ones; the choice becomes the pod's
  // volcano.sh/gpu-index.
  void Placed(TaskIndex t) {
    const NodeIndex n = ssn_->task_node(t);
    NodeCards* node = cards_.mutable_node(n);
    if (node == nullptr) return;
    cards_.Remember(t, n);
    const TaskStatus status = ssn_->task_status(t);
    if (status != TaskStatus::kAllocated && status != TaskStatus::kPipelined) {
      // An undone eviction: the pod is back on its own cards. Volcano's allocation hook
      // stops before the device for it (the Kubernetes reserve step fails for a pod not
      // filtered in the session), so nothing else is taken.
      node->Hold(t, PodGpuIndex(*ssn_->task(t).pod), memory_ask_[static_cast<size_t>(t)]);
      return;
    }
    if (!AsksDevice(t)) return;
    std::vector<int64_t> ids;
    const int64_t memory = memory_ask_[static_cast<size_t>(t)];
    if (memory > 0) {
      if (const GpuCardUse* card = node->FirstWithFree(memory)) ids.push_back(card->id);
    } else {
      ids = node->FirstIdle(number_ask_[static_cast<size_t>(t)]);
    }
    if (ids.empty()) return;  // Volcano fails the placement here; the predicate has ruled it out
    node->Hold(t, ids, memory);
    ssn_->SetPodAnnotation(t, kGpuIndexAnnotation, GpuIndexText(ids));
  }

  // ---- vGPU (hami-core) ----

  absl::Status OpenVgpu(Session& ssn) {
    vgpu_nodes_.assign(static_cast<size_t>(ssn.num_nodes()), std::nullopt);
    vgpu_asks_.assign(static_cast<size_t>(ssn.num_tasks()), 0);
    bool any = false;
    for (NodeIndex n = 0; n < ssn.num_nodes(); ++n) {
      const NodeSpec& spec = ssn.node_info(n).spec;
      if (std::optional<std::vector<VgpuCard>> cards = NodeVgpuCards(spec)) {
        vgpu_nodes_[static_cast<size_t>(n)].emplace(spec.name, *cards);
        any = true;
      }
    }
    for (TaskIndex t = 0; t < ssn.num_tasks(); ++t) {
      vgpu_asks_[static_cast<size_t>(t)] = PodAsksVgpu(*ssn.task(t).pod) ? 1 : 0;
      if (!any) continue;
      // Volcano's node accounting (NodeInfo.AddTask): every pod on the node but releasing
      // and pipelined ones, by its own volcano.sh/vgpu-ids-new.
      const TaskStatus s = ssn.task_status(t);
      const NodeIndex n = ssn.task_node(t);
      if (n == kNone || s == TaskStatus::kPending || s == TaskStatus::kSucceeded || s == TaskStatus::kFailed ||
          s == TaskStatus::kReleasing || s == TaskStatus::kPipelined) {
        continue;
      }
      if (VgpuNode* node = VgpuAt(n)) node->AddRunning(t, *ssn.task(t).pod, OwnGrants(t));
    }
    // A vGPU answer also reads the pod's annotations (card types and UUIDs, the sharing
    // mode, and the podgroup spread policy, which looks for the pod's own group on each
    // card): tasks with any are scored node by node, not by their shape's choice.
    ssn.AddNodeChoiceVetoFn([this](TaskIndex t) {
      if (!vgpu_asks_[static_cast<size_t>(t)]) return false;
      const Labels& a = ssn_->task(t).pod->annotations;
      for (const char* key : {kVgpuGroupPolicyAnnotation, kVgpuUseTypeAnnotation, kVgpuNoUseTypeAnnotation,
                              kVgpuUseUuidAnnotation, kVgpuNoUseUuidAnnotation, kVgpuModeAnnotation}) {
        if (a.count(key) != 0) return true;
      }
      return false;
    });
    no_vgpu_ = "hami-vgpuDeviceSharing error";
    ssn.AddPredicateFn([this](TaskIndex t, NodeIndex n) {
      VgpuNode* node = VgpuAt(n);
      if (node == nullptr || !vgpu_asks_[static_cast<size_t>(t)]) return FitResult::Success();
      if (node->Fit(*ssn_->task(t).pod, options_.policy, false).fit) return FitResult::Success();
      return FitResult::Fail(FitCode::kUnschedulable, ssn_->InternReason(no_vgpu_));
    });
    if (options_.weight > 0) {
      ssn.AddNodeOrderFn([this](TaskIndex t, NodeIndex n) {
        VgpuNode* node = VgpuAt(n);
        if (node == nullptr || !vgpu_asks_[static_cast<size_t>(t)]) return 0.0;
        const VgpuFit fit = node->Fit(*ssn_->task(t).pod, options_.policy, false);
        return std::floor(fit.score + 0.5) * static_cast<double>(options_.weight);
      });
    }
    ssn.AddFitCauseFn([this](TaskIndex t, NodeIndex n, absl::string_view reason) -> std::string {
      VgpuNode* node = VgpuAt(n);
      if (node == nullptr || reason != no_vgpu_) return "";
      return absl::StrCat(reason, " (", VgpuVerdict(*node, t), ")");
    });
    if (PredicatesConfigured(ssn.config())) {
      ssn.AddEventHandler({[this](TaskIndex t) { VgpuPlaced(t); }, [this](TaskIndex t) { VgpuUnplaced(t); }});
    }
    return absl::OkStatus();
  }

  VgpuNode* VgpuAt(NodeIndex n) {
    return n < 0 || !vgpu_nodes_[static_cast<size_t>(n)] ? nullptr : &*vgpu_nodes_[static_cast<size_t>(n)];
  }

  std::vector<std::vector<VgpuGrant>> OwnGrants(TaskIndex t) const {
    const Labels& a = ssn_->task(t).pod->annotations;
    auto it = a.find(kVgpuIdsAnnotation);
    return it == a.end() ? std::vector<std::vector<VgpuGrant>>() : DecodeVgpuGrants(it->second);
  }

  // Volcano's Allocate: the cards are taken on the node and the pod gets the annotations
  // the device plugin reads. A task whose eviction was undone is back on its own cards.
  void VgpuPlaced(TaskIndex t) {
    const NodeIndex n = ssn_->task_node(t);
    VgpuNode* node = VgpuAt(n);
    if (node == nullptr) return;
    vgpu_placed_on_[t] = n;
    const TaskStatus status = ssn_->task_status(t);
    const PodSpec& pod = *ssn_->task(t).pod;
    if (status != TaskStatus::kAllocated && status != TaskStatus::kPipelined) {
      node->AddRunning(t, pod, OwnGrants(t));  // an undone eviction: see Placed
      return;
    }
    if (!vgpu_asks_[static_cast<size_t>(t)]) return;
    const VgpuFit fit = node->Fit(pod, options_.policy, true);
    if (!fit.fit) return;  // Volcano fails the placement here; the predicate has ruled it out
    const std::string ids = EncodeVgpuGrants(fit.grants);
    const std::string now = absl::StrCat(ssn_->now_seconds());
    ssn_->SetPodAnnotation(t, kVgpuNodeAnnotation, ssn_->node_info(n).spec.name);
    ssn_->SetPodAnnotation(t, kVgpuTimeAnnotation, now);
    ssn_->SetPodAnnotation(t, kVgpuIdsAnnotation, ids);
    ssn_->SetPodAnnotation(t, kVgpuToAllocateAnnotation, ids);
    ssn_->SetPodAnnotation(t, kVgpuBindPhaseAnnotation, "allocating");
    ssn_->SetPodAnnotation(t, kVgpuBindTimeAnnotation, now);
    node->Record(t, pod, fit.grants);
  }

  // Volcano's Release gives back only what the pod's own annotation names: a placement
  // undone in the session keeps its cards counted until the session ends, as there.
  void VgpuUnplaced(TaskIndex t) {
    NodeIndex n = ssn_->task_node(t);
    if (n == kNone) {
      auto it = vgpu_placed_on_.find(t);
      n = it == vgpu_placed_on_.end() ? kNone : it->second;
    }
    if (VgpuNode* node = VgpuAt(n)) node->SubRunning(t, OwnGrants(t));
    ssn_->RemovePodAnnotations(t);
  }

  // Explain's account of a node's cards for a pod that did not fit.
  std::string VgpuVerdict(const VgpuNode& node, TaskIndex t) const {
    std::string out = VgpuNode(node).Fit(*ssn_->task(t).pod, options_.policy, false).error;
    for (const VgpuCardUse& c : node.cards()) {
      absl::StrAppend(&out, out.empty() ? "" : "; ", c.card.uuid, " ", c.used_num, "/", c.card.number, " pods, ",
                      c.card.memory > 0 ? static_cast<int64_t>(static_cast<uint64_t>(c.card.memory) - c.used_mem) : 0,
                      " MiB free, ", 100 - static_cast<int64_t>(c.used_core), "% cores free");
    }
    return out;
  }

  // Explain's account of a refusal of ours: each card's free memory, or who holds it.
  std::string Cause(TaskIndex t, NodeIndex n, absl::string_view reason) const {
    const NodeCards* node = cards_.node(n);
    if (node == nullptr || !(absl::StartsWith(reason, no_memory_) || absl::StartsWith(reason, no_number_))) return "";
    const bool memory = absl::StartsWith(reason, no_memory_);
    return absl::StrCat(reason, " (", CardsVerdict(*ssn_, *node, memory ? memory_ask_[static_cast<size_t>(t)] : 0,
                                                   memory ? 0 : number_ask_[static_cast<size_t>(t)]), ")");
  }

  void Unplaced(TaskIndex t) {
    NodeCards* node = cards_.mutable_node(cards_.NodeOf(t, ssn_->task_node(t)));
    if (node != nullptr) node->Release(t);
    ssn_->RemovePodAnnotations(t);
  }

  const DeviceShareOptions options_;
  Session* ssn_ = nullptr;
  GpuCardState cards_;
  std::vector<int64_t> memory_ask_;
  std::vector<int64_t> number_ask_;
  std::string no_memory_;
  std::string no_number_;
  std::string no_vgpu_;
  std::vector<std::optional<VgpuNode>> vgpu_nodes_;
  std::vector<uint8_t> vgpu_asks_;  // per task: Volcano's HasDeviceRequest for vGPU
  std::map<TaskIndex, NodeIndex> vgpu_placed_on_;
};

}  // namespace

absl::StatusOr<std::unique_ptr<Plugin>> NewDeviceSharePlugin(const Arguments& args) {
  DeviceShareOptions o;
  VCSCHED_ASSIGN_OR_RETURN(o.sharing, args.GetBool("deviceshare.GPUSharingEnable", false));
  VCSCHED_ASSIGN_OR_RETURN(o.number, args.GetBool("deviceshare.GPUNumberEnable", false));
  VCSCHED_ASSIGN_OR_RETURN(o.vgpu, args.GetBool("deviceshare.VGPUEnable", false));
  VCSCHED_ASSIGN_OR_RETURN(o.policy, args.GetString("deviceshare.SchedulePolicy", ""));
  VCSCHED_ASSIGN_OR_RETURN(o.weight, args.GetInt("deviceshare.ScheduleWeight", 0));
  // Read so that a wrongly typed value is reported; the node lock is the host's.
  VCSCHED_RETURN_IF_ERROR(args.GetBool("deviceshare.NodeLockEnable", false).status());
  for (const char* key : {"deviceshare.AscendMindClusterVNPUEnable", "deviceshare.AscendHAMiVNPUEnable"}) {
    VCSCHED_ASSIGN_OR_RETURN(const bool on, args.GetBool(key, false));
    if (on) o.unmodelled.emplace_back(key);
  }
  if (args.Find("deviceshare.GPUExclusiveRules") != nullptr) o.unmodelled.emplace_back("deviceshare.GPUExclusiveRules");
  if (o.sharing && o.number) {
    return absl::InvalidArgumentError(
        "deviceshare.GPUSharingEnable and deviceshare.GPUNumberEnable are both true: Volcano's scheduler exits "
        "(\"can not define true in both gpu sharing and gpu number\")");
  }
  if ((o.sharing || o.number) && o.vgpu) {
    return absl::InvalidArgumentError(
        "deviceshare.VGPUEnable with GPU sharing or GPU number: Volcano's scheduler exits (\"gpu-share and vgpu "
        "can't be used together\")");
  }
  return std::unique_ptr<Plugin>(new DeviceSharePlugin(std::move(o)));
}

}  // namespace vcsched::internal
