"""Packaging and ergonomics: the version, the path-or-text rule, plugin factories called
by their signature, batched node scoring, the public plugin types, IANA time zones."""
import os
import pathlib
import re

import pytest

import vcsched

REPO = pathlib.Path(os.environ.get("VCSCHED_REPO", pathlib.Path(__file__).resolve().parents[3]))
QUICKSTART = REPO / "examples" / "quickstart.yaml"


def test_version_is_the_one_in_cmakelists():
    m = re.search(r"project\(vcsched VERSION ([0-9.]+)", (REPO / "CMakeLists.txt").read_text())
    assert vcsched.__version__ == m.group(1)


def test_path_or_text_rule(tmp_path):
    by_path = vcsched.schedule(vcsched.load_scenario(QUICKSTART))  # os.PathLike: a file
    by_str = vcsched.schedule(vcsched.load_scenario(str(QUICKSTART)))  # no newline: a file
    by_text = vcsched.schedule(vcsched.load_scenario(QUICKSTART.read_text()))  # newline: text
    assert by_path.binds == by_str.binds == by_text.binds != {}
    missing = tmp_path / "cluster.yml"
    with pytest.raises(FileNotFoundError, match="cluster.yml"):
        vcsched.load_scenario(str(missing))  # a mistyped path is not read as YAML
    with pytest.raises(FileNotFoundError, match="cluster.yml"):
        vcsched.load_scenario(missing)
    with pytest.raises(FileNotFoundError):
        vcsched.load_config("volcano-scheduler.cnf")
    # A PathLike is a file even when a file of that name could be mistaken for text.
    odd = tmp_path / "actions: allocate"
    odd.write_text("actions: \"allocate, backfill\"\n")
    assert list(vcsched.load_config(odd).actions) == ["allocate", "backfill"]
    assert list(vcsched.load_config("actions: \"enqueue, allocate\"\n").actions) == ["enqueue", "allocate"]
    with pytest.raises(TypeError):
        vcsched.load_scenario(b"kind: Node\n")


def cluster():
    b = vcsched.SnapshotBuilder()
    for n in ("n1", "n2", "n3", "n4"):
        b.add_node(n, allocatable={"cpu": "4", "memory": "8Gi", "pods": "110"}, labels={"rank": n[1]})
    b.add_pod_group("g", namespace="ns", min_member=1)
    b.add_pod("p", namespace="ns", group="g", requests={"cpu": "1"})
    return b.build()


def config_with(name, arguments=None):
    return {"actions": "allocate", "tiers": [{"plugins": [{"name": "predicates"}, {"name": "nodeorder"}]},
                                             {"plugins": [{"name": name, "arguments": arguments or {}}]}]}


class PreferRank:
    def __init__(self, args):
        self.rank = str(args.get("rank", "3"))

    def node_order(self, task, node):
        return 1000.0 if node.labels["rank"] == self.rank else 0.0


def test_factories_are_called_by_their_signature():
    seen = []

    def no_args():
        seen.append("none")
        return PreferRank({"rank": "2"})

    def one_arg(args):
        seen.append(dict(args))
        return PreferRank(args)

    assert vcsched.schedule(cluster(), config_with("f"), plugins={"f": no_args}).binds == {"ns/p": "n2"}
    assert vcsched.schedule(cluster(), config_with("f", {"rank": 4}), plugins={"f": one_arg}).binds == {"ns/p": "n4"}
    # Each session makes its plugins afresh; arguments arrive as the configuration's text.
    assert "none" in seen and all(s == "none" or s == {"rank": "4"} for s in seen) and {"rank": "4"} in seen

    class NoArgs:
        def node_order(self, task, node):
            return 1000.0 if node.name == "n3" else 0.0
    assert vcsched.schedule(cluster(), config_with("c"), plugins={"c": NoArgs}).binds == {"ns/p": "n3"}


def test_a_type_error_inside_a_factory_is_not_hidden():
    calls = []

    def broken(args):
        calls.append(args)
        raise TypeError("the plugin's own bug")

    with pytest.raises(TypeError, match="the plugin's own bug"):
        vcsched.schedule(cluster(), config_with("b"), plugins={"b": broken})
    assert len(calls) == 1  # never retried without arguments
    vcsched.register_plugin("broken-registered", broken)
    try:
        with pytest.raises(TypeError, match="the plugin's own bug"):
            vcsched.schedule(cluster(), config_with("broken-registered"))
    finally:
        vcsched.unregister_plugin("broken-registered")
    with pytest.raises(TypeError):
        vcsched.register_plugin("not-callable", 42)


class BatchRank:
    calls = 0

    def batch_node_order(self, task, nodes):
        BatchRank.calls += 1
        assert isinstance(nodes, vcsched.NodeList) and isinstance(task, vcsched.TaskRef)
        assert all(isinstance(n, vcsched.NodeRef) for n in nodes) and len(list(nodes)) == len(nodes)
        assert [n.name for n in nodes] == nodes.names and nodes[-1].name == nodes.names[-1]
        assert nodes.label("rank") == [n.labels["rank"] for n in nodes]
        assert list(nodes.idle("cpu")) == [n.idle["cpu"] for n in nodes]
        assert list(nodes.allocatable("nvidia.com/gpu")) == [0] * len(nodes)
        assert nodes.label("zone", "none") == ["none"] * len(nodes)
        return [1000.0 if rank == "3" else 0.0 for rank in nodes.label("rank")]


def test_batch_node_order_scores_every_node_in_one_call():
    BatchRank.calls = 0
    d = vcsched.schedule(cluster(), config_with("batch"), plugins={"batch": BatchRank})
    assert d.binds == {"ns/p": "n3"}
    assert BatchRank.calls == 1  # one task, one call for all its nodes
    per_node = vcsched.schedule(cluster(), config_with("per", {"rank": 3}), plugins={"per": PreferRank})
    assert per_node.binds == d.binds


def test_batch_node_order_takes_a_numpy_array():
    np = pytest.importorskip("numpy")

    class NumpyRank:
        def batch_node_order(self, task, nodes):
            return np.array([float(n.labels["rank"]) * 100 for n in nodes])
    assert vcsched.schedule(cluster(), config_with("np"), plugins={"np": NumpyRank}).binds == {"ns/p": "n4"}


@pytest.mark.parametrize("result,message", [
    (lambda nodes: [1.0], "one number per node"),
    (lambda nodes: ["x"] * len(nodes), "item 0"),
    (lambda nodes: [float("nan")] * len(nodes), "item 0"),
    (lambda nodes: 3.0, "one number per node"),
    (lambda nodes: None, "one number per node"),
])
def test_batch_node_order_results_are_checked(result, message):
    class Bad:
        def batch_node_order(self, task, nodes):
            return result(nodes)
    with pytest.raises(TypeError, match=message):  # as for node_order: the plugin's mistake
        vcsched.schedule(cluster(), config_with("bad"), plugins={"bad": Bad})


def test_a_node_list_kept_past_its_session_raises():
    kept = []

    class Keeper:
        def batch_node_order(self, task, nodes):
            kept.append(nodes)
            return [0.0] * len(nodes)
    vcsched.schedule(cluster(), config_with("k"), plugins={"k": Keeper})
    with pytest.raises(vcsched.Error, match="session that has ended"):
        kept[0].names
    with pytest.raises(vcsched.Error, match="session that has ended"):
        kept[0][0]


def test_plugin_types_are_public_and_documented():
    for name in ("TaskRef", "NodeRef", "NodeList", "JobRef"):
        t = getattr(vcsched, name)
        assert name in vcsched.__all__ and t.__doc__ and "callback" in t.__doc__
    assert "key" in vcsched.TaskRef.__doc__ and "idle" in vcsched.NodeRef.__doc__


def test_cron_next_with_iana_time_zones():
    # 2024-01-10 00:00 UTC; 09:00 in New York is 14:00 UTC in winter (EST, UTC-5).
    winter = vcsched.cron_next("0 9 * * *", 1704844800, time_zone="America/New_York")
    assert winter == 1704844800 + 14 * 3600
    # 2024-07-10 00:00 UTC; in summer (EDT, UTC-4) it is 13:00 UTC.
    summer = vcsched.cron_next("0 9 * * *", 1720569600, time_zone="America/New_York")
    assert summer == 1720569600 + 13 * 3600
    assert vcsched.cron_next("0 9 * * *", 1704844800, time_zone="Asia/Shanghai") == 1704844800 + 3600
    assert vcsched.cron_next("0 9 * * *", 1704844800, -5 * 3600) == winter  # a fixed offset still works
    with pytest.raises(vcsched.Error, match="Mars/Olympus"):
        vcsched.cron_next("0 9 * * *", 0, time_zone="Mars/Olympus")
    with pytest.raises(vcsched.Error, match="not both"):
        vcsched.cron_next("0 9 * * *", 0, 3600, time_zone="UTC")


@pytest.mark.parametrize("value", [float("nan"), "1", True, None])
def test_node_order_must_return_a_number(value):
    """Issue 57: a node_order returning NaN was taken silently (it orders nodes by chance)."""
    class Bad:
        def node_order(self, task, node):
            return value
    with pytest.raises(TypeError, match="node_order must return a number"):
        vcsched.schedule(cluster(), config_with("bad"), plugins={"bad": Bad})
