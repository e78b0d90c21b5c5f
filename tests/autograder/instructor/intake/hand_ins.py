"""Hand-ins as an LMS delivers them, for the intake's tests."""
import io
import zipfile


def zipped(files: dict[str, bytes | str]) -> bytes:
    """A zip file holding ``files`` (name inside the archive: content), as an LMS's download."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, content in files.items():
            archive.writestr(name, content)
    return buffer.getvalue()
