import webnovel


def test_exported_members() -> None:
    assert webnovel.__all__ == ["Project", "WebnovelError", "init_project", "open_project"]
    for name in webnovel.__all__:
        assert hasattr(webnovel, name)
