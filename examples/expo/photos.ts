// A photo for the chat, from the phone's library or its camera (expo-image-picker), uploaded once
// to the worker's files route (POST …/files, docs/files.md) by clients/upload-files.js: the
// message names it by its signed URL, so it never travels again, however many turns follow.
import * as ImagePicker from 'expo-image-picker';
import { fetch as expoFetch } from 'expo/fetch';
import { uploadFiles, type UploadedFilePart } from '../../clients/upload-files.js';
import type { RequestHeaders } from './session';

/** Where a photo comes from. */
export type PhotoSource = 'library' | 'camera';

/**
 * The photos the user picks (or takes), each uploaded to the session's files route with the
 * chat's credentials: their `FileUIPart`s, for `sendMessage({ text, files })`; none when the user
 * cancels. A file the worker refuses (too large, a type it does not take) rejects with an
 * `UploadError`, whose message says which and why.
 */
export async function pickPhotos(source: PhotoSource, sessionUrl: string, headers: RequestHeaders): Promise<UploadedFilePart[]> {
  const options: ImagePicker.ImagePickerOptions = {
    mediaTypes: ['images'],
    // Re-encoded as a JPEG of 80 % quality: a photo of a few hundred KB on a thin link.
    quality: 0.8,
    // An iPhone keeps its photos as HEIC, which the worker does not take (FILE_TYPES): the most
    // compatible form the picker hands over is a JPEG.
    preferredAssetRepresentationMode: ImagePicker.UIImagePickerPreferredAssetRepresentationMode.Compatible,
  };
  let picked: ImagePicker.ImagePickerResult;
  if (source === 'camera') {
    const { granted } = await ImagePicker.requestCameraPermissionsAsync();
    if (!granted) throw new Error('Camera access was refused: the phone\'s settings can allow it.');
    picked = await ImagePicker.launchCameraAsync(options);
  } else {
    // The system's photo picker: no permission asked.
    picked = await ImagePicker.launchImageLibraryAsync({ ...options, allowsMultipleSelection: true });
  }
  if (picked.canceled) return [];
  const files = await Promise.all(picked.assets.map(readPicked));
  return uploadFiles(files, {
    filesUrl: `${sessionUrl}/files`,
    headers,
    // React Native's own fetch has no streaming body; expo/fetch takes the file as it is.
    fetch: expoFetch as unknown as typeof globalThis.fetch,
  });
}

/**
 * A picked photo as a `File`, its name and type the picker's: the picker leaves it in the app's
 * cache (a `file://` URI), which XMLHttpRequest reads on iOS and Android alike (`fetch` of a
 * `file://` URI fails on Android).
 */
function readPicked(asset: ImagePicker.ImagePickerAsset): Promise<File> {
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.responseType = 'blob';
    request.onload = () => {
      const blob = request.response as Blob;
      resolve(new File([blob], asset.fileName ?? 'photo.jpg', { type: asset.mimeType ?? blob.type }));
    };
    request.onerror = () => reject(new Error(`Could not read the photo (${asset.uri})`));
    request.open('GET', asset.uri);
    request.send();
  });
}
