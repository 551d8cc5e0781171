// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

// The main of a fuzz target outside libFuzzer: runs every file named on the command line,
// and every file in a directory named there, once through LLVMFuzzerTestOneInput, in name
// order. A crash is the sanitizers' (or the target's abort); no input at all is a failure,
// so that a corpus that went missing does not pass as tested.

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
extern "C" __attribute__((weak)) int LLVMFuzzerInitialize(int *argc, char ***argv);

namespace {

bool runFile(const std::filesystem::path &path)
{
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        std::fprintf(stderr, "cannot read %s\n", path.c_str());
        return false;
    }
    const std::vector<char> bytes { std::istreambuf_iterator<char>(in),
                                    std::istreambuf_iterator<char>() };
    std::fprintf(stderr, "Running: %s (%zu bytes)\n", path.c_str(), bytes.size());
    // A copy of exactly its size, so that ASan sees a read past the end of the input.
    std::vector<uint8_t> input(bytes.begin(), bytes.end());
    const uint8_t *data = input.empty() ? nullptr : input.data();
    LLVMFuzzerTestOneInput(data, input.size());
    return true;
}

} // namespace

int main(int argc, char **argv)
{
    if (LLVMFuzzerInitialize)
        LLVMFuzzerInitialize(&argc, &argv);
    std::size_t ran = 0;
    for (int i = 1; i < argc; ++i) {
        const std::filesystem::path arg(argv[i]);
        std::vector<std::filesystem::path> files;
        if (std::filesystem::is_directory(arg)) {
            for (const auto &entry : std::filesystem::directory_iterator(arg)) {
                if (entry.is_regular_file())
                    files.push_back(entry.path());
            }
            std::sort(files.begin(), files.end());
        } else {
            files.push_back(arg);
        }
        for (const auto &file : files) {
            if (!runFile(file))
                return 1;
            ++ran;
        }
    }
    std::fprintf(stderr, "Executed %zu inputs\n", ran);
    return ran > 0 ? 0 : 1;
}
