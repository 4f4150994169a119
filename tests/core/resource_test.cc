#include <catch2/catch.hpp>

#include "vcsched/resource.h"

namespace vcsched {
namespace {

// cpu, memory, pods, gpu
Resource R(int64_t cpu, int64_t mem, int64_t pods, int64_t gpu) {
  Resource r(4);
  r[0] = cpu;
  r[1] = mem;
  r[2] = pods;
  r[3] = gpu;
  return r;
}

TEST_CASE("Resource: classifies names as Volcano does", "[core][resource]") {
  CHECK(ClassifyResourceName("cpu") == ResourceKind::kCpuMillis);
  CHECK(ClassifyResourceName("memory") == ResourceKind::kMemoryBytes);
  CHECK(ClassifyResourceName("pods") == ResourceKind::kPodCount);
  CHECK(ClassifyResourceName("nvidia.com/gpu") == ResourceKind::kScalar);
  CHECK(ClassifyResourceName("hugepages-2Mi") == ResourceKind::kScalar);
  CHECK(ClassifyResourceName("ephemeral-storage") == ResourceKind::kScalar);
  CHECK(ClassifyResourceName("requests.cpu") == ResourceKind::kIgnored);
  CHECK(ClassifyResourceName("count/pods") == ResourceKind::kIgnored);
  CHECK(ClassifyResourceName("storage") == ResourceKind::kIgnored);
  // Prefixed native resources are scalars, as in Kubernetes' IsScalarResourceName.
  CHECK(ClassifyResourceName("kubernetes.io/something") == ResourceKind::kScalar);
  CHECK(ClassifyResourceName("subdomain.kubernetes.io/something") == ResourceKind::kScalar);
}

TEST_CASE("Resource: a space orders scalars by name after the fixed dimensions", "[core][resource]") {
  ResourceSpace s({"nvidia.com/gpu", "example.com/fpga", "nvidia.com/gpu"});
  REQUIRE(s.size() == 5);
  CHECK(s.name(3) == "example.com/fpga");
  CHECK(s.name(4) == "nvidia.com/gpu");
  CHECK(s.Find("pods") == kPods);
  CHECK(s.Find("missing") == -1);
}

TEST_CASE("Resource: a missing scalar counts as zero", "[core][resource]") {
  const Resource req = R(1000, 0, 1, 1000);
  SECTION("fits when idle has the scalar") { CHECK(LessEqual(req.span(), R(1000, 0, 1, 1000).span())); }
  SECTION("fails when idle lacks it") {
    CHECK_FALSE(LessEqual(req.span(), R(1000, 0, 1, 0).span()));
    CHECK(FirstExceeded(req.span(), R(1000, 0, 1, 0).span()) == 3);
  }
  SECTION("a scalar only in idle is ignored") { CHECK(LessEqual(R(1, 1, 1, 0).span(), R(1, 1, 1, -5).span())); }
}

TEST_CASE("Resource: the pods dimension takes part in fit", "[core][resource]") {
  CHECK_FALSE(LessEqual(R(0, 0, 1, 0).span(), R(100, 100, 0, 0).span()));
  CHECK(FirstExceeded(R(0, 0, 1, 0).span(), R(100, 100, 0, 0).span()) == kPods);
}

TEST_CASE("Resource: LessEqualWithDimension looks only at requested dimensions", "[core][resource]") {
  const Resource alloc = R(5000, 100, 9, 0);
  const Resource limit = R(4000, 200, 1, 0);
  CHECK_FALSE(LessEqualWithDimension(alloc.span(), limit.span(), R(1, 0, 1, 0).span()));
  CHECK(LessEqualWithDimension(alloc.span(), limit.span(), R(0, 1, 1, 0).span()));  // pods excluded
  CHECK(ExceededDimensions(alloc.span(), limit.span(), R(1, 1, 1, 1).span()) == std::vector<int>{0});
}

TEST_CASE("Resource: element-wise helpers", "[core][resource]") {
  CHECK(ExceededPart(R(5, 1, 0, 3).span(), R(3, 2, 0, 3).span()) == R(2, 0, 0, 0));
  CHECK(Max(R(5, 1, 0, 3).span(), R(3, 2, 0, 4).span()) == R(5, 2, 0, 4));
  CHECK(Min(R(5, 1, 0, 3).span(), R(3, 2, 0, 4).span()) == R(3, 1, 0, 3));
  CHECK(R(0, 0, 7, 0).IsEmpty());
  CHECK_FALSE(R(0, 1, 0, 0).IsEmpty());
  ResourceSpace space({"nvidia.com/gpu"});
  CHECK(R(1500, int64_t{1} << 30, 1, 0).ToString(space) == "cpu 1500m, memory 1Gi, pods 1");
}

}  // namespace
}  // namespace vcsched
