"""Training tasks for ``python -m seqmodels.train``: one module per task, registered here by name."""
from seqmodels.tasks.base import Task
from seqmodels.tasks.ctc_speech import CTC_SPEECH, CTC_SPOKEN
from seqmodels.tasks.dates import DATES, DATES_TRANSFORMER
from seqmodels.tasks.gpt_news import GPT_NEWS
from seqmodels.tasks.language_models import LANGUAGE_MODELS
from seqmodels.tasks.long_range import LONG_RANGE
from seqmodels.tasks.positions import POSITIONS
from seqmodels.tasks.sentiment import SENTIMENT
from seqmodels.tasks.skipgram import SKIPGRAM, SKIPGRAM_NEWS
from seqmodels.tasks.tagging import TAGGING

TASKS: dict[str, Task] = {task.name: task for task in (*SENTIMENT, SKIPGRAM, SKIPGRAM_NEWS, *LANGUAGE_MODELS, *LONG_RANGE, *TAGGING,
                                                   CTC_SPEECH, CTC_SPOKEN, DATES, DATES_TRANSFORMER, *POSITIONS, GPT_NEWS)}

__all__ = ["TASKS", "Task"]
