"""tiao: a game engine for draughts (international, brazilian, russian, duoyibu, english) and
Nine Men's Morris.

Moves are text: written in the Hub protocol's form (``32-28``; a capture ``28x19x23`` is from,
to, then the captured squares; Morris ``d6``, ``a1-a4``, ``d6xa4``), read in any form the engine
accepts (Hub, PDN short ``28x19`` or long, algebraic ``c3-d4``/``d4:f6``). See docs/python.md.
"""

from collections.abc import Callable, Iterable, Mapping
from typing import Any, Literal, Optional, Union, final

__all__ = [
    "Error", "VariantError", "FenError", "MoveError", "PdnError", "OptionError", "BusyError",
    "Position", "Outcome", "Engine", "Analysis", "PdnGame", "perft", "board_svg", "read_pdn",
    "write_pdn", "__version__", "VARIANTS",
]

__version__: str
VARIANTS: tuple[str, ...]
"""The canonical variant names: international, brazilian, russian, duoyibu, english, morris."""

_Color = Literal["white", "black"]

class Error(Exception):
    """The base class of every error tiao raises."""

class VariantError(Error, ValueError):
    """An unknown variant or draw-rule set, or a position of another game than the engine's."""

class FenError(Error, ValueError):
    """A position text (FEN, or a Nine Men's Morris position string) that does not parse."""

class MoveError(Error, ValueError):
    """A move that is not legal here, not understood, or ambiguous."""

class PdnError(Error, ValueError):
    """PDN text that does not parse, or a game whose moves do not replay."""

class OptionError(Error, ValueError):
    """An engine option or search limit out of its range, or a table larger than the memory
    available."""

class BusyError(Error, RuntimeError):
    """A search is already running on this engine (from another thread)."""

@final
class Outcome:
    """How a game ended."""

    winner: Optional[_Color]
    """The winner, or None for a draw."""
    termination: Literal["no-move", "draw-rule", "repetition"]
    """no-move: the loser had no legal move; draw-rule: a draw counter ran out; repetition: the
    third occurrence of a position."""
    result: str
    """As Position.result()."""

@final
class Position:
    """A game in progress: its start position, the moves played from it, and the position they
    lead to.

    >>> p = tiao.Position("international")
    >>> p.push("32-28"); p.push("19-23")
    >>> p.legal_moves()
    ['28x19x23']
    """

    def __new__(
        cls,
        variant: str = "international",
        fen: Optional[str] = None,
        moves: Optional[Iterable[str]] = None,
        draw_rules: str = "standard",
    ) -> Position:
        """variant: international (normal), brazilian, russian, duoyibu, english (american,
        checkers) or morris. fen: the start position (None or "start": the variant's). moves:
        moves played from it. draw_rules: "standard", or "fmjd" (russian's FMJD-64 set).

        Raises VariantError, FenError, or MoveError naming the first bad move."""
    @property
    def variant(self) -> str:
        """The variant's canonical name."""
    @property
    def draw_rules(self) -> Literal["standard", "fmjd"]: ...
    @property
    def fen(self) -> str:
        """The current position as a FEN (Morris: its position string)."""
    @property
    def start_fen(self) -> str:
        """The FEN of the position the game started from."""
    @property
    def turn(self) -> _Color:
        """The side to move."""
    @property
    def moves(self) -> list[str]:
        """The moves played since the start position, Hub form."""
    def legal_moves(self, notation: Literal["hub", "pdn"] = "hub") -> list[str]:
        """The legal moves (empty: the side to move has lost)."""
    def parse_move(self, move: str) -> str:
        """A legal move in any accepted form, in Hub form, without playing it. Raises MoveError."""
    def push(self, move: str) -> None:
        """Plays a legal move given in any accepted form. Raises MoveError (nothing changes)."""
    def pop(self) -> str:
        """Takes the last move back and returns it (Hub form). Raises IndexError at the start."""
    def is_over(self) -> bool:
        """Whether the game has ended by the rules (no legal move, a draw counter, or the third
        occurrence of a position)."""
    def result(self) -> str:
        """The result as PDN writes it: "2-0" "1-1" "0-2" (international), "1-0" "1/2-1/2" "0-1"
        (the other games), "*" while the game goes on."""
    def outcome(self) -> Optional[Outcome]:
        """How the game ended, or None while it goes on."""
    def perft(self, depth: int, threads: int = 1) -> int:
        """Leaves of the legal-move tree depth plies deep (0..=64). Releases the GIL."""
    def copy(self) -> Position:
        """An independent copy, history included."""
    def __copy__(self) -> Position: ...
    def __deepcopy__(self, memo: Any) -> Position: ...
    def __reduce__(self) -> tuple[Any, ...]: ...
    def __eq__(self, other: object, /) -> bool:
        """Same game and same current position (the moves that led there are not compared)."""
    def __hash__(self) -> int:
        """Changes when a move is pushed or popped."""
    def _repr_svg_(self) -> str:
        """The SVG picture (Jupyter shows it)."""

@final
class Analysis:
    """What a search found. score: centi-men (100 = one man, Morris: one piece) from the side to
    move, None when the result is proven; then win_in or loss_in is the distance in plies. Moves
    in Hub form, with the PDN form beside them."""

    fen: str
    turn: _Color
    best_move: Optional[str]
    """None only when the side to move has no legal move (it has lost)."""
    best_move_pdn: Optional[str]
    ponder: Optional[str]
    """The expected reply."""
    pv: list[str]
    pv_pdn: list[str]
    score: Optional[int]
    win_in: Optional[int]
    loss_in: Optional[int]
    depth: int
    seldepth: int
    nodes: int
    time: float
    """Seconds."""
    book: bool
    """The move comes from the opening book, not from a search (depth, nodes and time 0)."""
    @property
    def score_text(self) -> str:
        """+0.25, win in 7 plies, loss in 4 plies."""
    def to_dict(self) -> dict[str, Any]: ...

@final
class Engine:
    """The search engine: a game, search threads and a transposition table. Searches run without
    the GIL; stop() from another thread ends them."""

    def __new__(
        cls,
        variant: str = "international",
        threads: int = 1,
        hash_mb: int = 64,
        draw_rules: str = "standard",
        book: bool = True,
    ) -> Engine:
        """threads: 1..=256. hash_mb: the table in MiB, 1..=65536 (more than the memory available
        raises OptionError). book: play from the opening book, as the Hub does."""
    @property
    def variant(self) -> str: ...
    @property
    def draw_rules(self) -> Literal["standard", "fmjd"]: ...
    @property
    def threads(self) -> int: ...
    @property
    def hash_mb(self) -> int: ...
    @property
    def book(self) -> bool:
        """Whether analyse plays from the opening book (option book)."""
    @property
    def book_seed(self) -> int:
        """The seed of the book's choices (option book-seed)."""
    def book_moves(self, position: Union[Position, str]) -> Optional[list[tuple[str, int]]]:
        """The book's moves of the position, best first, with their scores (centi-men); None
        when the book is off or does not hold it."""
    @property
    def searching(self) -> bool:
        """Whether a search or a batch is running."""
    def set_option(self, name: str, value: Union[str, int, float, bool]) -> None:
        """As the Hub set-param: threads, hash, variant, draw-rules, move-overhead, book,
        book-file, book-ply, book-margin, book-seed, or a search parameter. Raises
        OptionError."""
    def new_game(self) -> None:
        """Clears the table (stops a running search)."""
    def stop(self) -> None:
        """Ends the running search or batch; callable from any thread."""
    def analyse(
        self,
        position: Union[Position, str],
        depth: Optional[int] = None,
        movetime: Optional[float] = None,
        nodes: Optional[int] = None,
        *,
        on_info: Optional[Callable[[Analysis], object]] = None,
    ) -> Analysis:
        """Searches one position with every thread until a limit (depth in plies 1..=127,
        movetime in seconds, nodes); with none, until stop() or Ctrl-C. on_info is called after
        each completed iteration. With the book on and a limit, a book position is answered
        with a book move at once (Analysis.book). Raises VariantError, BusyError,
        OptionError."""
    def analyse_many(
        self,
        positions: Iterable[Union[Position, str]],
        depth: Optional[int] = None,
        movetime: Optional[float] = None,
        nodes: Optional[int] = None,
    ) -> list[Analysis]:
        """Searches every position, threads at a time, each from an empty table; the results in
        input order. Needs a limit. stop() returns the analyses finished before the first
        unfinished position."""

@final
class PdnGame:
    """A game record as PDN holds it: tags, moves as written, result."""

    def __new__(
        cls,
        position: Optional[Position] = None,
        tags: Optional[Mapping[str, str]] = None,
        result: Optional[str] = None,
    ) -> PdnGame:
        """The record of position's game (moves in PDN form, GameType/Variant/SetUp/FEN tags,
        then tags, then the result: given, else the position's)."""
    @property
    def tags(self) -> dict[str, str]:
        """A copy, in order; assign a mapping to replace them."""
    @tags.setter
    def tags(self, tags: Mapping[str, str]) -> None: ...
    def tag(self, name: str) -> Optional[str]: ...
    def set_tag(self, name: str, value: str) -> None: ...
    @property
    def moves(self) -> list[str]:
        """The main line's moves, as written."""
    @property
    def comments(self) -> list[list[str]]:
        """The comments after each move."""
    @property
    def result(self) -> Optional[str]: ...
    @result.setter
    def result(self, result: Optional[str]) -> None: ...
    @property
    def variant(self) -> str:
        """From the Variant or GameType tag, else the variant it was read under."""
    @property
    def fen(self) -> Optional[str]:
        """The FEN tag."""
    def start_position(self) -> Position: ...
    def end_position(self) -> Position:
        """The position after every move. Raises PdnError naming a bad ply."""
    def to_pdn(self) -> str: ...
    def __copy__(self) -> PdnGame: ...
    def __deepcopy__(self, memo: Any) -> PdnGame: ...
    def __eq__(self, other: object, /) -> bool: ...

def perft(variant: str, fen: Optional[str], depth: int, *, threads: int = 1) -> int:
    """Leaves of the legal-move tree depth plies deep (0..=64) from fen (None or "start": the
    start position). Releases the GIL."""

def board_svg(
    position: Position, *, flip: bool = False, coordinates: bool = True, square: float = 50.0
) -> str:
    """The position as an SVG document, the last move marked."""

def read_pdn(
    text: str, variant: str = "international", draw_rules: str = "standard"
) -> list[PdnGame]:
    """Every game of a PDN text; variant is the game of those whose tags name none. Raises
    PdnError naming the line."""

def write_pdn(games: Union[PdnGame, Iterable[PdnGame]]) -> str:
    """PDN text of one game or of several."""
