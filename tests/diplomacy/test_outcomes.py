"""Reasons a result mail prints, and the rules around orders that the DATC cases leave out."""

from __future__ import annotations

from typing import Any

import pytest

from gm_daemon.diplomacy.phase import PhaseError, run, run_phase


def movement(units: dict[str, list[str]], orders: dict[str, list[str]], **rules: Any) -> dict:
    return run_phase({"phase": "movement", "units": units, "orders": orders, "rules": rules})


def outcome(out: dict, normalized: str) -> tuple[str, str]:
    [entry] = [o for o in out["orders"] if o["normalized"] == normalized]
    return entry["result"], entry["reason"]


def test_bounce_cut_and_dislodge_reasons() -> None:
    out = movement(
        {
            "France": ["F MAO", "A BUR", "A MAR"],
            "England": ["F ENG"],
            "Germany": ["A MUN", "A RUH"],
            "Italy": ["A PIE"],
        },
        {
            "France": ["F MAO - BRE", "A MAR S A BUR", "A BUR H"],
            "England": ["F ENG - BRE"],
            "Germany": ["A MUN - BUR", "A RUH S A MUN - BUR"],
            "Italy": ["A PIE - MAR"],
        },
    )
    assert outcome(out, "F MAO - BRE") == ("fails", "bounced with F ENG")
    assert outcome(out, "A MAR S A BUR") == ("fails", "support cut by A PIE")
    assert outcome(out, "A BUR H") == ("fails", "dislodged by A MUN")
    assert outcome(out, "A PIE - MAR") == ("fails", "bounced off A MAR")
    assert out["dislodged"] == {
        "France": [
            {"unit": "A BUR", "attacker_from": "MUN", "by_convoy": False,
             "retreats": ["BEL", "GAS", "PAR", "PIC"]},
        ]
    }  # fmt: skip
    assert out["contested"] == ["BRE"]


def test_convoy_reasons_and_unordered_units() -> None:
    out = movement(
        {"England": ["A YOR", "A LON", "F NTH"], "Germany": ["F SKA", "F DEN"]},
        {
            "England": ["A YOR - NWY", "F NTH C A YOR - NWY"],
            "Germany": ["F SKA - NTH", "F DEN S F SKA - NTH"],
        },
    )
    assert outcome(out, "A YOR - NWY") == ("fails", "no convoy path: convoy disrupted")
    assert outcome(out, "F NTH C A YOR - NWY") == ("fails", "dislodged by F SKA")
    implied = [o for o in out["orders"] if o["order"] is None]
    assert implied == [
        {"power": "England", "order": None, "normalized": "A LON H", "result": "succeeds",
         "reason": "no order"},
    ]  # fmt: skip


def test_an_illegal_order_becomes_a_hold_that_can_be_supported() -> None:
    out = movement(
        {"Austria": ["A BUD"], "Russia": ["F RUM"], "Turkey": ["F BLA", "A BUL"]},
        {
            "Austria": ["A BUD S F RUM"],
            "Russia": ["F RUM - HOL"],
            "Turkey": ["F BLA - RUM", "A BUL S F BLA - RUM"],
        },
    )
    assert outcome(out, "F RUM - HOL") == ("invalid", "F RUM cannot reach HOL")
    assert outcome(out, "A BUD S F RUM") == ("succeeds", "")
    assert outcome(out, "F BLA - RUM") == ("fails", "bounced off F RUM")


def test_ambiguous_coast_names_the_choices() -> None:
    out = movement({"France": ["F MAO"]}, {"France": ["F MAO - SPA"]})
    assert outcome(out, "F MAO - SPA") == ("invalid", "which coast of SPA: SPA/NC or SPA/SC?")


def test_unreadable_and_foreign_orders_are_invalid_with_a_reason() -> None:
    out = movement(
        {"England": ["F LON"], "Germany": ["F KIE"]},
        {"Germany": ["F LON - NTH", "F KIE - Nowhere", "A KIE H"]},
    )
    rows = [(o["order"], o["result"], o["reason"]) for o in out["orders"]]
    assert rows[0] == ("F LON - NTH", "invalid", "F LON belongs to England")
    assert rows[1][1] == "invalid" and "unknown province 'Nowhere'" in rows[1][2]
    assert rows[2] == ("A KIE H", "succeeds", "")  # wrong unit type is ignored (DATC 4.C.2)
    assert rows[3] == (None, "succeeds", "no order")  # England's F LON holds


def test_two_different_orders_for_one_unit_void_both() -> None:
    out = movement({"France": ["A PAR"]}, {"France": ["A PAR - BUR", "A PAR - PIC", "A PAR - BUR"]})
    assert [o["result"] for o in out["orders"]] == ["invalid"] * 3
    assert out["orders"][0]["reason"] == "A PAR has conflicting orders"
    assert out["units"] == {"France": ["A PAR"]}


def test_the_same_order_twice_counts_once() -> None:
    out = movement({"France": ["A PAR"]}, {"France": ["A PAR - BUR", "Army Paris -> Burgundy"]})
    assert [(o["result"], o["reason"]) for o in out["orders"]] == [
        ("succeeds", ""),
        ("invalid", "repeats an earlier order"),
    ]


@pytest.mark.parametrize(
    ("rulebook", "result", "where"), [("2000", "succeeds", "HOL"), ("2023", "fails", "BEL")]
)
def test_via_convoy_without_a_convoy_falls_back_only_under_2000(
    rulebook: str, result: str, where: str
) -> None:
    out = movement(
        {"France": ["A BEL"], "England": ["F NTH"]},
        {"France": ["A BEL - HOL VIA"], "England": ["F NTH H"]},
        rulebook=rulebook,
    )
    assert outcome(out, "A BEL - HOL VIA")[0] == result
    assert out["units"]["France"] == [f"A {where}"]


def test_via_convoy_with_no_fleet_anywhere_is_illegal_under_2023() -> None:
    out = movement({"France": ["A BEL"]}, {"France": ["A BEL - HOL VIA"]}, rulebook="2023")
    assert outcome(out, "A BEL - HOL VIA") == ("invalid", "no fleets to convoy A BEL to HOL")
    out = movement({"France": ["A BEL"]}, {"France": ["A BEL - HOL VIA"]}, rulebook="2000")
    assert outcome(out, "A BEL - HOL") == ("succeeds", "")


def test_retreat_phase_reads_movement_output_and_disbands_the_unordered() -> None:
    moved = movement(
        {"France": ["A BUR", "A PAR"], "Germany": ["A MUN", "A RUH", "A KIE"]},
        {"Germany": ["A MUN - BUR", "A RUH S A MUN - BUR"]},
    )
    retreat = run_phase(
        {
            "phase": "retreat",
            "units": moved["units"],
            "dislodged": moved["dislodged"],
            "contested": moved["contested"],
            "orders": {"France": ["A BUR R MAR"], "Germany": ["A KIE - HOL"]},
        }
    )
    assert [(o["normalized"], o["result"], o["reason"]) for o in retreat["orders"]] == [
        ("A BUR R MAR", "succeeds", ""),
        ("A KIE - HOL", "invalid", "the unit in KIE was not dislodged"),
    ]
    assert retreat["units"]["France"] == ["A MAR", "A PAR"]
    nothing = run_phase({**retreat, "phase": "retreat", "units": moved["units"],
                         "dislodged": moved["dislodged"], "orders": {}})  # fmt: skip
    assert [(o["normalized"], o["reason"]) for o in nothing["orders"]] == [
        ("A BUR D", "no order: disbanded")
    ]


def test_retreat_input_may_restrict_the_options_and_allow_the_convoy_origin() -> None:
    def retreat(entry: dict, order: str) -> dict:
        return run_phase(
            {
                "phase": "retreat",
                "units": {"France": ["A MAR"]},
                "dislodged": {"Italy": [{"unit": "A GAS", "attacker_from": "SPA", **entry}]},
                "orders": {"Italy": [order]},
            }
        )

    by_land = retreat({}, "A GAS - SPA")
    assert by_land["orders"][0]["reason"] == (
        "A GAS cannot retreat to SPA: the attack came from there"
    )
    assert retreat({"by_convoy": True}, "A GAS - SPA")["units"]["Italy"] == ["A SPA"]
    assert retreat({"retreats": ["BUR"]}, "A GAS - PAR")["orders"][0]["result"] == "invalid"


def adjustment(units: dict, centers: dict, orders: dict, **rules: Any) -> dict:
    return run_phase(
        {
            "phase": "adjustment",
            "units": units,
            "centers": centers,
            "orders": orders,
            "rules": rules,
        }
    )


def test_builds_waive_and_types_left_out() -> None:
    out = adjustment(
        {"Russia": ["A WAR"]},
        {"Russia": ["MOS", "SEV", "STP", "WAR"]},
        {"Russia": ["Build Moscow", "Build StP/nc", "Waive", "Build A Sevastopol"]},
    )
    assert [(o["normalized"], o["result"]) for o in out["orders"]] == [
        ("BUILD A MOS", "succeeds"),
        ("BUILD F STP/NC", "succeeds"),
        ("WAIVE", "succeeds"),
        ("BUILD A SEV", "fails"),
    ]
    assert out["units"] == {"Russia": ["A MOS", "F STP/NC", "A WAR"]}
    coastal = adjustment({"England": []}, {"England": ["LON"]}, {"England": ["Build London"]})
    assert (coastal["orders"][0]["result"], coastal["orders"][0]["reason"]) == (
        "invalid",
        "army or fleet in LON?",
    )


def test_build_anywhere_allows_any_owned_empty_centre() -> None:
    position = (
        {"Germany": ["A BER"]},
        {"Germany": ["BER", "WAR"]},
        {"Germany": ["Build A Warsaw"]},
    )
    assert adjustment(*position)["orders"][0]["result"] == "invalid"
    anywhere = adjustment(*position, build_anywhere=True)
    assert anywhere["orders"][0]["result"] == "succeeds"
    assert anywhere["units"] == {"Germany": ["A BER", "A WAR"]}


def test_homes_can_be_given_for_any_power_names() -> None:
    out = run_phase({
        "phase": "adjustment", "units": {"P1": ["A PAR"]}, "centers": {"P1": ["PAR", "BEL"]},
        "homes": {"P1": ["PAR", "BEL"]}, "orders": {"P1": ["Build A Belgium"]},
    })  # fmt: skip
    assert out["units"] == {"P1": ["A BEL", "A PAR"]}


def test_nothing_to_adjust_and_power_without_centres() -> None:
    out = adjustment({"Italy": ["A ROM", "F NAP"]}, {"Italy": []}, {"Italy": ["Build A Rome"]})
    assert out["orders"][0]["result"] == "invalid"
    assert out["units"] == {"Italy": []}
    assert [o["normalized"] for o in out["orders"] if o["order"] is None] == [
        "REMOVE F NAP",
        "REMOVE A ROM",
    ]


def test_a_list_of_phases_gives_a_list_of_results() -> None:
    phase = {
        "phase": "movement",
        "units": {"France": ["A PAR"]},
        "orders": {"France": ["A PAR - BUR"]},
    }
    assert run([phase, phase]) == [run_phase(phase)] * 2


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"phase": "spring"}, "phase must be one of"),
        ({"units": {"France": ["A PAR", "F PAR"]}}, "units of France: F cannot stand in PAR"),
        ({"units": {"France": ["A PAR"], "Germany": ["A PAR"]}}, "two units in PAR"),
        ({"units": {"France": ["F STP"]}}, "F cannot stand in STP"),
        ({"units": {"France": ["A XYZ"]}}, "unknown province 'XYZ'"),
        ({"units": {"France": ["PAR"]}}, "is not like 'A PAR'"),
        ({"rules": {"rulebook": "1971"}}, "unknown rulebook '1971'"),
        ({"orders": {"France": "A PAR H"}}, "orders of France must be a list"),
    ],
)
def test_bad_phases_are_refused_with_a_reason(change: dict, message: str) -> None:
    phase = {"phase": "movement", "units": {"France": ["A PAR"]}, "orders": {}} | change
    with pytest.raises(PhaseError, match=message):
        run_phase(phase)
