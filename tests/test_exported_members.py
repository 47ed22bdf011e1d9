import webnovel


def test_exported_members() -> None:
    assert webnovel.__all__ == [
        "BookBusy",
        "InvalidChapterResult",
        "InvalidInput",
        "Project",
        "ReviewBlocked",
        "UnknownChapter",
        "UnknownEntity",
        "WebnovelError",
        "init_project",
        "open_project",
    ]
    for name in webnovel.__all__:
        assert hasattr(webnovel, name)
