// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#include <KeepTrying/abstractofflinecopystore.h>

namespace KeepTrying {

AbstractOfflineCopyStore::AbstractOfflineCopyStore(QObject *parent) : QObject(parent) { }

AbstractOfflineCopyStore::~AbstractOfflineCopyStore() = default;

} // namespace KeepTrying
