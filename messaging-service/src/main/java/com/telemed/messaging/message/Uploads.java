package com.telemed.messaging.message;

import com.telemed.messaging.attachment.Upload;
import org.jboss.resteasy.reactive.multipart.FileUpload;

/** A Quarkus REST file part as the contract's {@link Upload}. */
final class Uploads {

    private Uploads() {
    }

    static Upload checked(FileUpload file) {
        return file == null ? Upload.checked(null, null, null, 0)
                : Upload.checked(file.uploadedFile(), file.fileName(), file.contentType(), file.size());
    }
}
