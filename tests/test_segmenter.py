"""The word segmenter: one dictionary a process, each book's names laid over it, never shared."""

from __future__ import annotations

import re
from pathlib import Path

import rjieba

import webnovel
from webnovel.memory.read.aliases import AliasIndex, Mention
from webnovel.memory.retrieval.segmenter import Segmenter, load_segmenter, shared_dictionary
from webnovel.memory.store import vector_store

# 《西游记》: jieba with 悟空 added to its dictionary cut 悟 / 空闻 here
TEXT = "悟空闻得此言，满心欢喜，拜了齐天大圣。"


class Book:
    """A book's segmenter with its names (one entity each), as the search index holds them."""

    def __init__(self, names: list[str]) -> None:
        self.segmenter: Segmenter = load_segmenter()
        self.names = AliasIndex([(name, f"e{i}") for i, name in enumerate(names)])

    def words(self, text: str, found: list[Mention] | None = None) -> list[str]:
        return self.segmenter.words(text, self.names, found)


def words(names: list[str], text: str) -> list[str]:
    return Book(names).words(text)


def test_a_books_names_are_words_of_that_book_only() -> None:
    journey, other = Book(["悟空", "齐天大圣"]), Book(["林砚"])
    names = other.names
    assert "悟空" in journey.words(TEXT) and "空闻" not in journey.words(TEXT)
    assert "悟空" not in other.words(TEXT)
    # a name the other book learns later is its word at once, and still no one else's
    names.replace(["e9"], [("闻得此言", "e9")])
    assert "闻得此言" in other.words(TEXT) and "闻得此言" not in journey.words(TEXT)
    assert not rjieba.has_word("闻得此言")  # the shared dictionary itself is left as it was
    names.replace(["e9"], [])
    assert "闻得此言" not in other.words(TEXT)  # nor does a name gone stay a word


def test_the_dictionary_is_loaded_once_a_process() -> None:
    Book(["悟空"]).words(TEXT)
    Book(["林砚"]).words(TEXT)
    assert shared_dictionary.cache_info().misses == 1


def test_without_names_the_words_are_the_dictionarys() -> None:
    plain = [w for w in rjieba.cut_for_search(TEXT) if re.search(r"\w", w)]
    assert words([], TEXT) == plain


def test_a_name_is_one_word_preceded_by_its_parts_that_are_words() -> None:
    # 韩啸: a name of the book; 青灯: a word of the dictionary; 灯照 and 照剑: neither
    # (the index counts words, it keeps no order)
    assert sorted(words(["韩啸", "韩啸天", "青灯照剑"], "韩啸天拔出青灯照剑")) == sorted(
        ["韩啸", "韩啸天", "拔出", "青灯", "青灯照剑"]
    )
    # one character is the dictionary's business, and so is a name jieba cannot keep whole
    assert words(["悟", "亚瑟·潘"], "亚瑟·潘说") == words([], "亚瑟·潘说")


def test_the_longest_name_at_a_position_wins() -> None:
    cut = words(["萧炎", "萧炎之父", "之父来"], "萧炎之父来了")
    assert cut.count("萧炎") == 1 and "萧炎之父" in cut  # the part, and the whole name
    assert "之父来" not in cut  # it starts inside a name already taken


def test_names_found_by_the_caller_are_the_ones_laid_over() -> None:
    book = Book(["悟空"])
    assert book.words(TEXT, book.names.find(TEXT, fold=False)) == book.words(TEXT)
    assert "悟空" not in book.words(TEXT, [])  # none found: the dictionary's cut


def test_an_index_cut_by_the_older_segmenter_is_cut_again(tmp_path: Path) -> None:
    """The words column changed with the shared dictionary (jieba with 悟空 added cut 悟 / 空闻):
    an index stamped with the older format is cut again before the next search, never mixed."""
    root = tmp_path / "b"
    result = {"chapter": 1, "entities_new": [{"id": "wukong", "name": "悟空", "type": "角色"}]}
    with webnovel.init_project(root, title="西游") as book:
        book.commit(result, text=TEXT)
        assert book.search("悟空")
        retrieval = book.retrieval()
        with retrieval.store.atomic() as conn, retrieval.lexicon.writing() as lexicon:
            lexicon.add(999, 1, "空闻", "悟 空闻", [], "空闻")  # what the older format held
            vector_store.set_meta(conn, "lexicon_format", "3:chars")
    with webnovel.open_project(root) as book:
        assert book.search_pending() == 1
        assert [h.chapter for h in book.search("悟空")] == [1]
        assert book.search_pending() == 0
        assert book.retrieval().lexicon.known_terms("words", ["悟空", "空闻"]) == ["悟空"]


def test_a_new_automaton_where_a_freed_one_lay_gets_its_own_words() -> None:
    # 啸天 is a name of the first book's automaton and not of the second's. CPython often
    # gives a new object the place, so the id, of one just freed, and both are at version 0:
    # what was worked out for the first must not serve the second.
    text = "韩啸天拔刀。"
    for _ in range(20):  # the place is taken again often, not always
        segmenter = load_segmenter()
        first = AliasIndex([("韩啸天", "e0"), ("啸天", "e1")])
        assert "啸天" in segmenter.words(text, first)
        del first
        second = AliasIndex([("韩啸天", "e0")])
        assert "啸天" not in segmenter.words(text, second)
        assert segmenter.words(text, second) == load_segmenter().words(text, second)
