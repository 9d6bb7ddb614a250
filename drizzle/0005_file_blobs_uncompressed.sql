-- Downloads read a blob slice by slice (docs/api.md#files). Stored uncompressed (EXTERNAL), a slice
-- reads only its own TOAST pages; compressed, every slice would decompress the whole file.
-- Uploads are mostly compressed formats already (PNG, JPEG, PDF, ZIP), so little is lost.
ALTER TABLE "file_blobs" ALTER COLUMN "bytes" SET STORAGE EXTERNAL;
