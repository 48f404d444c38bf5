/**
 * Files merchants upload with save_file (game logos, cover images, screenshots); the function stores them under
 * `merchant/<id>/<uuid>.<ext>` and game records keep that relative path.
 *
 * Public read access: game portals and launchers show these images straight from the bucket
 * (`https://<bucket domain>/<path>`), with no signed URLs and no function in the path. That is safe because
 * only images get in (save_file checks the content's leading bytes, not the name or header), keys are random
 * UUIDs (nothing to enumerate: public access covers GetObject, not listing), and the pictures are meant to be
 * shown publicly anyway. Writes stay private to the linked functions.
 */
export const files = new sst.aws.Bucket('Files', { access: 'public' });
