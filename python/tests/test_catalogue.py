"""hb.catalogue(): the mechanisms this module runs. The library's module holds the defaults;
a mechanism outside it is refused by name, with the catalogue named (a module built by
hinesbatch-build-sim --python holds the user's: ctest consumer_builds_its_python_module)."""
import os

import pytest

import hinesbatch as hb

REPO = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")


def test_the_default_catalogue():
    cat = hb.catalogue()
    assert cat["name"] == "defaults"
    assert sorted(cat["mechanisms"]) == sorted(["Exp2Syn", "ExpSyn", "hh", "IClamp", "pas"])


def test_a_point_process_outside_it_is_named():
    config = os.path.join(REPO, "scripts", "validation", "cases_mod", "stdpsyn_random_p3.json")
    with pytest.raises(hb.InputError) as e:
        hb.run_config(config, overrides=["tstop=5", "output={}"], backend="host")
    message = str(e.value)
    assert "network.synapse.name" in message and "'defaults'" in message and "stdpsyn" in message
