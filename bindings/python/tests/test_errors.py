"""Bad input becomes vcsched.Error with the library's message; nothing crashes."""
import pytest

import vcsched


def test_error_is_a_value_error():
    assert issubclass(vcsched.Error, ValueError)
    assert issubclass(vcsched.NotFoundError, KeyError)


def test_bad_quantity_names_the_object_and_field():
    b = vcsched.SnapshotBuilder()
    b.add_pod("p", namespace="ns", requests={"cpu": "12x"})
    with pytest.raises(vcsched.Error) as e:
        b.build()
    msg = str(e.value)
    assert 'Pod "ns/p"' in msg and "spec.containers[0].resources.requests.cpu" in msg and '"12x"' in msg


def test_duplicate_names_are_rejected():
    b = vcsched.SnapshotBuilder()
    b.add_node("n1").add_node("n1")
    with pytest.raises(vcsched.Error, match="duplicate name"):
        b.build()


def test_malformed_yaml_and_unknown_kinds():
    with pytest.raises(vcsched.Error, match="invalid YAML"):
        vcsched.load_scenario("kind: Node\nmetadata: {name: [oops\n")
    with pytest.raises(vcsched.Error, match='unknown kind "Nod"'):
        vcsched.load_scenario("apiVersion: v1\nkind: Nod\nmetadata: {name: n}\n")


def test_yaml_on_threads_reads_and_reports_the_same():
    docs = "".join(f"---\napiVersion: v1\nkind: Node\nmetadata: {{name: n{i}}}\n"
                   f"status: {{allocatable: {{cpu: \"4\", pods: \"10\"}}}}\n" for i in range(200))
    one = vcsched.load_scenario(docs)
    many = vcsched.load_scenario(docs, threads=4)
    assert one.snapshot.nodes == many.snapshot.nodes
    assert len(one.snapshot.nodes) == 200
    bad = docs + "---\na: 1\na: 2\n" + docs.replace("n1}", "n1x}").replace("name: n", "name: m")
    with pytest.raises(vcsched.Error) as e1:
        vcsched.load_scenario(bad)
    with pytest.raises(vcsched.Error) as e4:
        vcsched.load_scenario(bad, threads=4)
    assert str(e1.value) == str(e4.value) and 'duplicate key "a"' in str(e1.value)
    with pytest.raises(ValueError):
        vcsched.load_scenario(docs, threads=0)


def test_bad_configurations():
    with pytest.raises(vcsched.Error, match='unknown plugin "gangg"'):
        vcsched.schedule(vcsched.SnapshotBuilder().build(),
                         {"actions": "allocate", "tiers": [{"plugins": [{"name": "gangg"}]}]})
    with pytest.raises(vcsched.Error, match='unknown action "allocat"'):
        vcsched.schedule(vcsched.SnapshotBuilder().build(), {"actions": "allocat", "tiers": []})
    # A wrongly typed argument is not an error: it is dropped with a warning, as Volcano does.
    d = vcsched.schedule(vcsched.SnapshotBuilder().build(),
                         {"actions": "allocate",
                          "tiers": [{"plugins": [{"name": "nodeorder", "arguments": {"leastrequested.weight": "x"}}]}]})
    assert any("expected an integer" in w for w in d.warnings)
    with pytest.raises(vcsched.Error, match="unknown plugin switch"):
        vcsched.load_config({"actions": "allocate", "tiers": [{"plugins": [{"name": "gang", "enableJobReadyy": True}]}]})


def test_wrong_python_types_are_type_errors():
    with pytest.raises(TypeError):
        vcsched.SnapshotBuilder().add_node(42)
    with pytest.raises(TypeError):
        vcsched.schedule("not a snapshot")
    with pytest.raises(TypeError):
        vcsched.load_scenario(42)
    with pytest.raises(vcsched.Error):
        vcsched.SnapshotBuilder().add({"no": "kind"})
    with pytest.raises(vcsched.Error):
        vcsched.parse_quantity("lots")


@pytest.mark.parametrize("text", [
    "", "---\n---\n", "- 1\n- 2\n", "a: [1, 2\n", "\x00\x01", "kind: Pod\napiVersion: v1\nspec: 3\n",
    "kind: Pod\napiVersion: v1\nmetadata: {name: p}\nspec: {containers: [{resources: {requests: {cpu: -1}}}]}\n",
    "[" * 1000, "kind: Queue\napiVersion: scheduling.volcano.sh/v1beta1\nmetadata: {name: q}\nspec: {weight: -3}\n",
])
def test_garbage_never_crashes(text):
    try:
        sc = vcsched.load_scenario(text + "\n")  # a str with a newline is text, never a path
    except vcsched.Error:
        return
    vcsched.schedule(sc)


def bad_inputs():
    import pathlib
    import os
    repo = pathlib.Path(os.environ.get("VCSCHED_REPO", pathlib.Path(__file__).resolve().parents[3]))
    return sorted((repo / "tests" / "bad_inputs").glob("*.yaml"))


@pytest.mark.parametrize("path", bad_inputs(), ids=lambda p: p.name)
def test_bad_input_corpus(path):
    expect = path.read_bytes().split(b"\n", 1)[0].decode()[len("# expect: "):]
    with pytest.raises(vcsched.Error) as e:
        sc = vcsched.load_scenario(path)
        vcsched.schedule(sc)
    assert expect in str(e.value)


def test_dangling_references_are_warnings_and_place_nothing():
    path = bad_inputs()[0].parent / "warned" / "dangling-references.yaml"
    d = vcsched.schedule(vcsched.load_scenario(path))
    assert d.binds == {} and d.pipelined == {}
    assert len(d.warnings) == 3
    assert 'spec.queue: queue "nowhere" not found' in d.warnings[2]


def test_thousands_of_resources_no_node_offers_count_as_one():
    # 2,000 pods naming 12 resources each that no node offers: one column per name would
    # pass the resource tables' limit, so they fold into one with a warning.
    docs = ['apiVersion: v1\nkind: Node\nmetadata: {name: n1}\n'
            'status: {allocatable: {cpu: "64", memory: 256Gi, pods: "110", nvidia.com/gpu: "32"}}\n']
    for i in range(2000):
        req = '{cpu: "1", nvidia.com/gpu: "1"}' if i % 100 == 0 else \
            "{cpu: \"1\", " + ", ".join(f'example.com/r{i * 12 + r}: "1"' for r in range(12)) + "}"
        docs.append(f"apiVersion: v1\nkind: Pod\nmetadata: {{name: p{i}, namespace: ns}}\n"
                    f"spec: {{schedulerName: volcano, containers: [{{name: c, resources: {{requests: {req}}}}}]}}\n")
    sc = vcsched.load_scenario("---\n".join(docs))
    assert sc.snapshot.resources == ["cpu", "memory", "pods", "nvidia.com/gpu", "vcsched.io/unoffered"]
    assert any("23760 resource names" in w for w in sc.snapshot.warnings)
    d = vcsched.schedule(sc.snapshot, sc.config)
    assert len(d.binds) == 20


def test_cluster_last_apply_is_none_before_the_first_schedule(repo):
    c = vcsched.Cluster(vcsched.load_scenario(repo / "examples" / "quickstart.yaml"))
    assert c.last_apply is None
    c.schedule()
    assert isinstance(c.last_apply, dict) and "conflicts" in c.last_apply
