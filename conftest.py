"""Root pytest configuration: which tests a bare ``pytest`` runs.

* A bare ``pytest`` runs the quick tests: the unit and property tests under
  ``tests/`` and the doctests of ``ttr_lab`` (``testpaths`` in
  pyproject.toml).  ``--runslow`` adds the tests marked ``slow`` and
  ``browser``; ``make test`` and CI pass it (and add ``benchmarks/tests`` and
  the notebooks).
* ``browser``: everything under ``tests/e2e`` drives Chromium (marked here).
* ``slow``: a test marks itself (``@pytest.mark.slow``); a doctest, or a
  test in a module this file should not need to touch, is named in
  :data:`SLOW` (``tests/test_markers.py`` checks that every name there
  still exists).
* The package's doctests without the optional extras: a module of
  ``ttr_lab`` that imports an optional dependency at the top (plotly,
  ipywidgets, anywidget: the ``[lab]`` extra) is left out when that
  dependency is not installed, so ``pytest`` runs with networkx alone.

The tests' own fixtures live in ``tests/conftest.py``.
"""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import pytest

_OPTIONAL = re.compile(r"^(?:import|from)\s+(plotly|ipywidgets|anywidget|traitlets|pandas|dask|tqdm)\b", re.M)

#: Tests too slow for the quick run, by why, as node ids (a test with all its
#: parameter sets, or one of them): each took about 0.3 s of CPU or more on
#: the project's 2-core machine, measured per test with its subprocesses in
#: bare runs (before: 2583 tests, 301 s of CPU; after: about 2,340 tests,
#: 74 s with collection).  One cheap parameter set of a property test stays
#: in the quick run (USA, Europe).  They run with ``--runslow``.
SLOW_TESTS: dict[str, tuple[str, ...]] = {
    "starts Python processes (the command line, a fresh interpreter, a copy of the checkout)": (
        "tests/test_agents.py::test_agents_are_deterministic_across_processes",
        "tests/test_analysis_arguments.py::test_a_run_takes_bot_specs_and_checks_them_before_the_first_game",
        "tests/test_analysis_arguments.py::test_the_command_line_refuses_an_endless_budget_in_one_line",
        "tests/test_app_secrets.py::test_a_brute_force_from_the_seat_s_view_finds_nothing",
        "tests/test_app_secrets.py::test_one_key_one_deal_per_number_and_the_teacher_replays_it",
        "tests/test_app_secrets.py::test_the_key_and_the_seed_never_reach_the_page",
        "tests/test_bots_cli.py::test_a_closed_output_pipe_stops_quietly",
        "tests/test_bots_cli.py::test_core_imports_no_jupyter_or_plotly",
        "tests/test_bots_cli.py::test_every_failure_is_one_line_and_a_non_zero_exit",
        "tests/test_bots_cli.py::test_greedy_beats_random_most_of_the_time",
        "tests/test_bots_cli.py::test_play_piped_into_head_prints_no_traceback",
        "tests/test_bots_cli.py::test_play_save_to_a_missing_folder_fails_on_one_line",
        "tests/test_bots_cli.py::test_python_dash_m_entry_point",
        "tests/test_bots_cli.py::test_validate_a_position_file",
        "tests/test_checkout.py::test_a_new_game_from_the_copy",
        "tests/test_checkout.py::test_editions_command",
        "tests/test_checkout.py::test_every_shipped_map_and_a_bot_game_from_the_copy",
        "tests/test_checkout.py::test_the_copy_is_what_runs",
        "tests/test_checkout.py::test_the_rules_reference_from_the_copy",
        "tests/test_cli_analysis.py::test_advice_reads_only_the_seats_view",
        "tests/test_cli_analysis.py::test_advise_prints_win_chances_and_ranked_moves",
        "tests/test_cli_analysis.py::test_review_a_seat_record_from_its_seat",
        "tests/test_cli_analysis.py::test_review_flags_and_counts",
        "tests/test_cli_analysis.py::test_review_saves_every_column",
        "tests/test_cli_edges.py::test_a_failing_review_keeps_the_old_file",
        "tests/test_cli_edges.py::test_a_full_device_is_one_line",
        "tests/test_cli_edges.py::test_a_review_that_cannot_be_written_keeps_the_old_file",
        "tests/test_cli_edges.py::test_closed_standard_output_is_one_line",
        "tests/test_cli_edges.py::test_ctrl_c_during_review_save_keeps_the_old_file",
        "tests/test_cli_edges.py::test_ctrl_c_while_starting_is_one_line",
        "tests/test_cli_edges.py::test_full_standard_output_and_error_still_exit_1",
        "tests/test_cli_edges.py::test_importing_ttr_lab_elsewhere_leaves_ctrl_c_alone",
        "tests/test_cli_edges.py::test_python_dash_m_names_itself",
        "tests/test_cli_edges.py::test_the_console_script_names_itself",
        "tests/test_cli_edges.py::test_version",
        "tests/test_dask.py::test_a_killed_worker_loses_no_game",
        "tests/test_dask.py::test_a_small_tournament_on_the_cluster",
        "tests/test_dask.py::test_same_rows_on_the_cluster_by_client_executor_and_address",
        "tests/test_data.py::test_plain_checkout_falls_back_to_the_maps_folder",
        "tests/test_extras.py::test_a_missing_package_names_its_extra_and_the_command",
        "tests/test_extras.py::test_the_tournament_command_without_pandas_says_how_to_install_it",
        "tests/test_make_lab.py::test_make_lab_turns_autosave_off_where_jupyterlab_reads_it",
        "tests/test_packaging.py::test_importing_data_does_not_import_notebook_libraries",
        "tests/test_plugin_classroom.py::test_installed_variant_is_found_by_its_entry_points",
        "tests/test_registry.py::test_an_installed_edition_is_found_in_a_process_pool",
        "tests/test_registry.py::test_an_installed_edition_plays_and_replays_from_the_command_line",
        "tests/test_safeio.py::test_dev_stdin_when_it_is_a_pipe",
        "tests/test_safewrite.py::test_sigint_at_random_moments_leaves_a_whole_file",
        "tests/test_safewrite.py::test_the_librarys_saves_never_destroy_a_file",
        "tests/test_simulate.py::test_a_killed_pool_worker_loses_no_game",
        "tests/test_simulate.py::test_chunks_add_up_to_the_table",
        "tests/test_simulate.py::test_import_ttr_lab_loads_no_simulation_dependency",
        "tests/test_simulate.py::test_same_seed_same_rows_in_process_and_on_a_process_pool",
        "tests/test_student_copies.py::test_making_the_copies_twice_gives_the_same_bytes",
        "tests/test_student_copies.py::test_student_copies_are_in_sync_with_the_teacher_copies",
        "tests/test_student_copies.py::test_the_check_mode_names_a_stale_copy",
        "tests/test_tournament.py::test_cli_batch_size_changes_the_tasks_not_the_rows",
        "tests/test_tournament.py::test_cli_in_a_subprocess_prints_the_table_and_saves",
        "tests/test_tournament.py::test_tournament_win_intervals_cover_known_odds",
        "tests/test_widget_files.py::test_the_folder_is_chosen_by_whoever_starts_it",
    ),
    "plays whole games, or many moves, through a widget": (
        "tests/test_board_display.py::test_a_figure_as_a_cells_value_displays_its_own_bundle_without_nbformat",
        "tests/test_board_display.py::test_a_state_and_a_view_show_the_stdlib_svg_without_plotly",
        "tests/test_board_display.py::test_every_board_widget_saves_its_board_and_a_line_of_text",
        "tests/test_board_stays.py::test_the_play_widgets_board_keeps_its_frame_and_traces_all_game[europe]",
        "tests/test_board_stays.py::test_the_play_widgets_board_keeps_its_frame_and_traces_all_game[rails_and_sails]",
        "tests/test_board_text.py::test_fonts_grow_with_the_width[rails_and_sails_world]",
        "tests/test_figure_widget.py::test_the_edit_bookkeeping_still_runs_waiting_callbacks",
        "tests/test_notebook_boards.py::test_the_saved_lesson_shows_every_board_without_a_kernel[01-learn-the-rules]",
        "tests/test_notebook_boards.py::test_the_saved_lesson_shows_every_board_without_a_kernel[02-play]",
        "tests/test_notebook_boards.py::test_the_saved_lesson_shows_every_board_without_a_kernel[03-graph-theory]",
        "tests/test_notebook_boards.py::test_the_saved_lesson_shows_every_board_without_a_kernel[04-analyse-a-saved-game]",
        "tests/test_notebook_boards.py::test_the_saved_lesson_shows_every_board_without_a_kernel[05-editions]",
        "tests/test_notebook_boards.py::test_the_saved_lesson_shows_every_board_without_a_kernel[06-ask-the-advisor]",
        "tests/test_notebook_boards.py::test_the_saved_lesson_shows_every_board_without_a_kernel[07-simulate]",
        "tests/test_notebook_boards.py::test_the_saved_lesson_shows_every_board_without_a_kernel[09-probability]",
        "tests/test_plugin_classroom.py::test_play_widget_advice_panel",
        "tests/test_plugin_classroom.py::test_play_widget_hard_level",
        "tests/test_plugin_classroom.py::test_play_widget_sends_nothing_of_another_seats_objective",
        "tests/test_plugin_classroom.py::test_review",
        "tests/test_render.py::test_an_edition_and_a_small_board_draw",
        "tests/test_render.py::test_render_does_not_import_widgets",
        "tests/test_svg.py::test_a_saved_notebook_shows_the_board_without_a_kernel",
        "tests/test_svg.py::test_works_without_plotly",
        "tests/test_widget_advice.py::test_a_hint_lights_its_one_claim_on_the_board",
        "tests/test_widget_advice.py::test_bobs_secrets_change_nothing_in_adas_advice",
        "tests/test_widget_advice.py::test_no_advice_with_the_hand_hidden",
        "tests/test_widget_advice.py::test_the_advice_follows_every_move_and_never_a_bot",
        "tests/test_widget_advice.py::test_the_hint_shows_one_move_its_chance_and_how_sure",
        "tests/test_widget_advice.py::test_the_play_widgets_advisor_speaks_a_players_words",
        "tests/test_widget_advice.py::test_the_review_plot_moves_the_slider",
        "tests/test_widget_controls.py::test_the_widget_builds_exactly_the_controls_the_edition_names[great_lakes]",
        "tests/test_widget_hidden_info.py::test_a_refusal_about_the_hand_goes_when_the_hand_is_hidden",
        "tests/test_widget_hidden_info.py::test_adas_split_changes_nothing_on_bobs_screen",
        "tests/test_widget_hidden_info.py::test_bobs_hand_changes_nothing_on_adas_screen",
        "tests/test_widget_hidden_info.py::test_nothing_secret_reaches_the_page_in_a_hot_seat_game",
        "tests/test_widget_recorder.py::test_a_game_entered_from_one_seat_replays_to_its_view",
        "tests/test_widget_recorder.py::test_any_first_player_in_every_edition[0-rails_sails]",
        "tests/test_widget_recorder.py::test_any_first_player_in_every_edition[1-europe]",
        "tests/test_widget_recorder.py::test_any_first_player_in_every_edition[1-rails_sails]",
        "tests/test_widget_recorder.py::test_any_first_player_in_every_edition[by name-rails_sails]",
        "tests/test_widget_recorder.py::test_refused_entries_between_good_ones_change_nothing",
        "tests/test_widget_scorer.py::test_a_finished_game_entered_by_clicks_scores_as_the_game",
        "tests/test_widget_scorer.py::test_refused_entries_between_good_ones_leave_the_good_sheet",
        "tests/test_widget_scorer.py::test_the_breakdown_draws_the_selected_players_paths",
        "tests/test_widget_scorer.py::test_the_file_row_is_above_the_breakdown_and_sized_to_fit",
        "tests/test_widgets.py::test_history_opens_a_seat_record_and_shows_only_what_was_public",
        "tests/test_widgets.py::test_inspector_lists_grouped_legal_moves_and_highlights",
        "tests/test_widgets.py::test_scripted_human_plays_a_whole_game_against_a_bot",
        "tests/test_widgets.py::test_the_hard_bot_plays_the_advisors_move_from_its_own_view",
        "tests/test_widgets.py::test_the_score_table_turns_when_its_columns_would_overflow_the_side_panel[rails_and_sails-True]",
        "tests/test_widgets.py::test_tutorial_explains_each_rule_once_when_it_first_applies_and_the_final_score",
        "tests/test_widgets_editions.py::test_scripted_person_plays_a_whole_game_against_a_bot",
        "tests/test_widgets_editions.py::test_setup_split_slider_is_secret_until_all_have_chosen[rails_and_sails]",
        "ttr_lab/widgets/advice.py::ttr_lab.widgets.advice",
        "ttr_lab/widgets/history.py::ttr_lab.widgets.history",
        "ttr_lab/widgets/playing/moves.py::ttr_lab.widgets.playing.moves",
    ),
    "analysis over many samples or playouts": (
        "tests/test_advisor.py::test_a_position_from_the_editor_gets_the_same_advice_whatever_the_filling",
        "tests/test_advisor.py::test_a_time_budget_halves_the_candidates_like_a_playout_budget",
        "tests/test_advisor.py::test_advice_is_well_formed_and_deterministic[europe-3-70]",
        "tests/test_advisor.py::test_advice_is_well_formed_and_deterministic[rails_and_sails-2-80]",
        "tests/test_advisor.py::test_advice_is_well_formed_and_deterministic[usa-3-90]",
        "tests/test_advisor.py::test_calibrated_chances_are_the_raw_ones_through_the_map",
        "tests/test_advisor.py::test_the_advice_panel_shows_the_seats_fair_view_only",
        "tests/test_advisor.py::test_the_advisor_bot_plays_legal_moves",
        "tests/test_analysis.py::test_longest_trail_matches_brute_force",
        "tests/test_analysis.py::test_longest_trail_matches_brute_force_on_denser_graphs",
        "tests/test_determinize.py::test_a_late_position_where_most_random_card_deals_lead_nowhere_is_still_sampled",
        "tests/test_determinize.py::test_reshuffled_decks_hold_only_what_the_discard_gave_them",
        "tests/test_determinize.py::test_samples_keep_every_public_fact_and_the_seats_secrets[4-170-greedy-rails_and_sails]",
        "tests/test_ismcts.py::test_caution_keeps_the_policy_move_unless_another_is_clearly_better",
        "tests/test_ismcts.py::test_the_answer_is_well_formed_and_deterministic[europe-3-70]",
        "tests/test_ismcts.py::test_the_answer_is_well_formed_and_deterministic[rails_and_sails-2-0]",
        "tests/test_ismcts.py::test_the_answer_is_well_formed_and_deterministic[rails_and_sails-2-80]",
        "tests/test_ismcts.py::test_the_answer_is_well_formed_and_deterministic[usa-3-90]",
        "tests/test_ismcts.py::test_the_bot_plays_a_game_against_greedy_to_the_end",
        "tests/test_ismcts.py::test_the_tree_shares_the_other_seats_secret_keeps_and_widens_slowly",
        "tests/test_odds.py::test_the_closed_form_agrees_with_the_simulation_on_held_out_positions",
        "tests/test_odds.py::test_the_closed_form_matches_a_monte_carlo_of_its_model",
        "tests/test_odds.py::test_the_hypergeometric_core_on_real_positions",
        "tests/test_review.py::test_a_seat_record_is_reviewed_from_its_seat_as_the_full_record_is",
        "tests/test_review.py::test_a_suspicious_drop_is_confirmed_with_more_playouts",
        "tests/test_review.py::test_an_injected_bad_keep_is_flagged_on_two_seeds",
        "tests/test_review.py::test_review_of_a_record_is_well_formed_and_deterministic",
        "tests/test_search_contract.py::test_the_answer_is_the_same_whatever_the_hidden_cards_and_tickets",
    ),
    "seeded games or checks over every edition": (
        "tests/test_agents.py::test_every_agent_finishes_every_edition[world]",
        "tests/test_bad_input.py::test_every_raise_raises_a_ttr_error",
        "tests/test_caches.py::test_entries_are_weighted_by_their_size",
        "tests/test_caches.py::test_many_groups_share_one_budget",
        "tests/test_caches.py::test_the_estimate_is_what_the_caches_hold",
        "tests/test_edition_hooks.py::test_extra_from_view_rebuilds_the_public_fields_and_keeps_the_view[europe]",
        "tests/test_outcomes.py::test_a_record_with_outcomes_replays_without_its_seed",
        "tests/test_playout.py::test_every_move_is_legal_in_every_edition[4-rails_and_sails]",
        "tests/test_properties.py::test_bots_finish_every_edition[rails_and_sails]",
        "tests/test_properties.py::test_conservation_at_every_ply_and_termination[great_lakes]",
        "tests/test_properties.py::test_conservation_at_every_ply_and_termination[rails_and_sails]",
        "tests/test_properties.py::test_conservation_at_every_ply_and_termination[usa-1910]",
        "tests/test_properties.py::test_conservation_at_every_ply_and_termination[usa-big_cities]",
        "tests/test_properties.py::test_conservation_at_every_ply_and_termination[usa-mega]",
        "tests/test_properties.py::test_views_hide_hidden_information[great_lakes]",
        "tests/test_properties.py::test_views_hide_hidden_information[rails_and_sails]",
        "tests/test_properties.py::test_views_hide_hidden_information[usa-1910]",
        "tests/test_properties.py::test_views_hide_hidden_information[usa-big_cities]",
        "tests/test_properties.py::test_views_hide_hidden_information[usa-mega]",
        "tests/test_rules_europe.py::test_random_game_conserves_everything_and_terminates",
        "tests/test_rules_rails_sails.py::test_bots_finish",
        "tests/test_rules_rails_sails.py::test_generated_claims_and_harbors_equal_a_brute_force_enumeration",
        "tests/test_rules_rails_sails.py::test_random_game_conserves_every_card_and_piece_type_and_terminates",
        "tests/test_rules_reference.py::test_every_rule_id_in_the_source_is_documented",
        "tests/test_rules_reference.py::test_every_rule_id_the_engine_returns_is_documented",
        "tests/test_safeio.py::test_wide_shallow_json_is_fine",
        "tests/test_scorer.py::test_the_scorer_agrees_with_the_game[europe]",
        "tests/test_scorer.py::test_the_scorer_agrees_with_the_game[great_lakes]",
        "tests/test_scorer.py::test_the_scorer_agrees_with_the_game[rails_and_sails]",
        "tests/test_scorer.py::test_the_scorer_agrees_with_the_game[usa-1910]",
        "tests/test_scorer.py::test_the_scorer_agrees_with_the_game[usa-mega]",
        "tests/test_seat_records.py::test_a_seat_record_replays_to_the_seats_view[europe]",
        "tests/test_seat_records.py::test_a_seat_record_replays_to_the_seats_view[great_lakes]",
        "tests/test_seat_records.py::test_a_seat_record_replays_to_the_seats_view[rails_and_sails]",
        "tests/test_seat_records.py::test_a_seat_record_replays_to_the_seats_view[usa-1910]",
        "tests/test_seat_records.py::test_a_seat_record_replays_to_the_seats_view[usa-big_cities]",
        "tests/test_seat_records.py::test_a_seat_record_replays_to_the_seats_view[usa-mega]",
        "tests/test_short_ticket_deck.py::test_a_short_ticket_deck_never_deals_a_ticket_twice[4-rails_and_sails]",
        "tests/test_unicode_input.py::test_parse_move_and_outcomes_raise_only_ttr_errors",
    ),
}
SLOW = {node: why for why, nodes in SLOW_TESTS.items() for node in nodes}


def _missing(module: str) -> bool:
    return importlib.util.find_spec(module) is None


def pytest_ignore_collect(collection_path: Path, config: object) -> bool | None:
    if collection_path.suffix != ".py" or "ttr_lab" not in collection_path.parts:
        return None
    try:
        text = collection_path.read_text(encoding="utf-8")
    except OSError:
        return None
    needs = set(_OPTIONAL.findall(text))
    if "widgets" in collection_path.parts:  # importing any widget module imports the package's widgets
        needs |= {"plotly", "ipywidgets", "anywidget"}
    return True if any(_missing(m) for m in needs) else None


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--runslow", action="store_true", default=False, help="also run the slow and the browser tests (make test does)"
    )


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if "e2e" in item.path.parts:  # everything under tests/e2e drives a browser
            item.add_marker(pytest.mark.browser)
        why = SLOW.get(item.nodeid) or SLOW.get(item.nodeid.split("[", 1)[0])
        if why is not None:
            item.add_marker(pytest.mark.slow(reason=why))
    if config.getoption("--runslow"):
        return
    skip_slow = pytest.mark.skip(reason="slow: run with --runslow (make test does)")
    skip_browser = pytest.mark.skip(reason="drives Chromium: run with --runslow (make test does)")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip_slow)
        elif "browser" in item.keywords:
            item.add_marker(skip_browser)
